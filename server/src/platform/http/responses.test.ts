import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { regionsRoutes, Status } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';

/**
 * Response schemas: the contract's `response` of a route is published in the OpenAPI document, and under
 * CHECK_RESPONSES (every API test runs with it) an answer that does not match it is a server error, so a server
 * answer that drifts from what the web compiles against fails the tests that call it.
 */
describe('response schemas', () => {
  let t: TestApp;
  let admin: string;
  const original = regionsRoutes.tree.response;
  beforeAll(async () => {
    // The route registered with a response schema the real answer cannot meet (codes are strings).
    (regionsRoutes.tree as { response: z.ZodType }).response = z.array(z.object({ code: z.number() }));
    t = await testApp();
    admin = await t.token();
  });
  afterAll(async () => {
    (regionsRoutes.tree as { response: z.ZodType }).response = original;
    await t.close();
  });

  it('answers a server error when the data drifts from the contract', async () => {
    const r = await t.api('GET', regionsRoutes.tree.path, { token: admin });
    expect(r.status).toBe(Status.serverError);
    expect(r.data).toBeNull();
  });

  it('publishes the shape of the data in the OpenAPI document', async () => {
    const doc = (await t.raw('GET', '/api/docs/json')).json() as {
      paths: Record<
        string,
        { post?: { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } }
      >;
    };
    const ok = doc.paths[regionsRoutes.add.path]?.post?.responses?.['200'];
    const schema = ok?.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined;
    expect(schema?.properties?.data).toMatchObject({ type: 'object', properties: { code: { type: 'string' } } });
  });
});
