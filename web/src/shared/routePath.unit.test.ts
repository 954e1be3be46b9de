import { describe, expect, it } from 'vitest';
import { enterprisesRoutes, platformsRoutes, tailingsEnterprisesRoutes } from '@geosentry/contract';
import { fillPath } from './routePath.ts';

describe('fillPath', () => {
  it("fills the contract's path parameters", () => {
    expect(fillPath(platformsRoutes.list.path, { type: 'bridge' })).toBe(
      '/api/v2/data/information/platform/bridge/getListPage',
    );
    expect(fillPath(enterprisesRoutes.add.path, { enterpriseType: 'general' })).toBe(
      '/api/v2/data/information/enterprise/general/add',
    );
  });

  it('leaves a path without parameters as it is, whatever is given', () => {
    expect(fillPath(tailingsEnterprisesRoutes.all.path, { enterpriseType: 'general' })).toBe(
      tailingsEnterprisesRoutes.all.path,
    );
  });

  it('encodes values and refuses a missing one', () => {
    expect(fillPath('/a/:x/b', { x: '../c?d' })).toBe('/a/..%2Fc%3Fd/b');
    expect(() => fillPath(platformsRoutes.add.path, {})).toThrow(/no value for :type/);
  });
});
