import { ENTERPRISE_WORDING_TYPES } from '@geosentry/contract';

/**
 * Wording that depends on the platform type and the port (spec §1). Each function returns an i18n
 * key (namespace common) for `t()`, so the words follow the language.
 */

/** The port whose deployment speaks of slopes rather than hazard points and projects. */
export const SLOPE_PORT = '7733';

const currentPort = (): string => (typeof window === 'undefined' ? '' : window.location.port);

/** 'enterprise' for landslide/disaster, sideslope, tailings, reservoir and river types, otherwise 'management organisation'. */
export function orgWord(
  platformType: string | null | undefined,
): 'common:wording.enterprise' | 'common:wording.organisation' {
  return platformType && ENTERPRISE_WORDING_TYPES.includes(platformType)
    ? 'common:wording.enterprise'
    : 'common:wording.organisation';
}

/** 'slope point' on port 7733, otherwise 'hazard point'. */
export function hazardNoun(port: string = currentPort()): 'common:wording.slopePoint' | 'common:wording.hazardPoint' {
  return port === SLOPE_PORT ? 'common:wording.slopePoint' : 'common:wording.hazardPoint';
}

/** 'Slope' on port 7733, otherwise 'Project' (the page-title noun). */
export function titleNoun(port: string = currentPort()): 'common:wording.slope' | 'common:wording.project' {
  return port === SLOPE_PORT ? 'common:wording.slope' : 'common:wording.project';
}
