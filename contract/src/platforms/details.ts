import { z } from 'zod';
import { zText } from '../api/zod.ts';
import { optChoice, optCount, optDate, optFlag, optNumber, optPhone, optText } from './fields.ts';
import type { PlatformType } from './kinds.ts';

/**
 * The kind-specific fields of a site (spec §3), stored in `platforms.details` (jsonb) and validated by
 * the schema of the site's kind. Every field is optional except the bridge's code, custody unit and bridge
 * type (spec §5; the bridge name is the site's common `name`). Units are in each field's description.
 * Unknown keys are refused, so a misspelt field is reported rather than silently dropped.
 */

/** Scale grading of a hazard (small, medium, large, extra large). */
export const HAZARD_SCALE_GRADES = ['small', 'medium', 'large', 'extraLarge'] as const;
/** Risk (danger) level of a hazard. */
export const HAZARD_RISK_LEVELS = ['small', 'medium', 'large', 'extraLarge'] as const;
/** Reservoir dam types (spec §3). */
export const RESERVOIR_DAM_TYPES = ['earthRock', 'concrete', 'stoneMasonry', 'drainWell'] as const;
/** Tailings pond types (spec §3). */
export const TAILINGS_TYPES = ['valley', 'mountainside', 'flat', 'riverCutting'] as const;
/** Tailings pond status. */
export const TAILINGS_STATUSES = ['inUse', 'underConstruction', 'suspended', 'closed'] as const;
/** Bridge types (spec §3). */
export const BRIDGE_TYPES = [
  'beam',
  'steelTrussArch',
  'truss',
  'steelConcreteArch',
  'concreteFilledSteelTubeArch',
  'cableStayed',
  'suspension',
] as const;
/** The bridge types that are arches: only these take an arch kind. */
export const BRIDGE_ARCH_BRIDGE_TYPES: readonly string[] = [
  'steelTrussArch',
  'steelConcreteArch',
  'concreteFilledSteelTubeArch',
];
/** Arch kinds (spec §3). */
export const BRIDGE_ARCH_TYPES = ['plate', 'ribbed', 'doubleCurvature', 'box', 'steel', 'combination'] as const;
/** Bridge size classes. */
export const BRIDGE_SIZE_CLASSES = ['extraLarge', 'large', 'medium', 'small'] as const;

/** Fields of hazard points, shared by slopes (spec §3 "Hazard point / slope"). */
const hazardFields = {
  volume: optNumber('Volume, 10,000 m³', 0),
  dangerArea: optText(500, 'Dangerous area (extent of the danger zone)'),
  scaleGrade: optChoice(HAZARD_SCALE_GRADES, 'Scale grading'),
  predisposingFactor: optText(500, 'Predisposing factor'),
  currentSituation: optText(500, 'Current situation (stability)'),
  trend: optText(500, 'Trend'),
  threatObjectType: optText(200, 'Threat object type'),
  households: optCount('Threatened households'),
  people: optCount('Threatened people'),
  property: optNumber('Threatened property, 10,000 yuan', 0),
  riskLevel: optChoice(HAZARD_RISK_LEVELS, 'Risk level'),
  preventionPlan: optText(2000, 'Prevention plan'),
  preventionUrgency: optText(200, 'Prevention urgency'),
  responsiblePhone: optPhone('Responsible person phone'),
  responsibleDepartment: optText(200, 'Responsible department'),
  actionTaken: optText(2000, 'Action taken'),
  monitor: optText(100, 'Monitor (the person watching the site)'),
  monitorPhone: optPhone('Monitor phone'),
  authenticatedAt: optDate('Authentication (identification) date'),
  monitorInstallation: optText(500, 'Monitor installation'),
};

export const disasterDetailsSchema = z.object(hazardFields).strict();

export const sideslopeDetailsSchema = z
  .object({
    ...hazardFields,
    roadName: optText(200, 'Road name'),
    roadCode: optText(100, 'Road code'),
    segment: optText(200, 'Road segment (stake range, e.g. K12+300 to K12+650)'),
    roadDescription: optText(2000, 'Road segment description'),
    siteType: optText(100, 'Site type'),
    slopeSoil: optText(200, 'Slope soil'),
    maxSlopeHeight: optNumber('Maximum slope height, m', 0),
  })
  .strict();

export const reservoirDetailsSchema = z
  .object({
    reservoirNumber: optText(100, 'Reservoir number'),
    damType: optChoice(RESERVOIR_DAM_TYPES, 'Dam type'),
    totalCapacity: optNumber('Total storage capacity, 10,000 m³', 0),
    damHeight: optNumber('Dam height, m', 0),
    damWidth: optNumber('Dam (crest) width, m', 0),
    damSafetyLevel: optText(50, 'Dam safety level'),
    dischargeMethod: optText(200, 'Discharge method'),
    floodLevel: optNumber('Flood level, m'),
    limitedFloodLevel: optNumber('Flood-limited water level, m'),
    floodStorageCapacity: optNumber('Flood storage capacity, 10,000 m³', 0),
    projectLevel: optText(50, 'Project level'),
    completionDate: optDate('Completion date'),
    radius: optNumber('Radius, m', 0),
    elevation: optNumber('Elevation (dam crest), m'),
    highestAlertRatio: optNumber('Theoretical highest alert line ratio, 0 to 1', 0, 1),
  })
  .strict();

export const riverDetailsSchema = z
  .object({
    length: optNumber('Length, km', 0),
    basinArea: optNumber('Drainage (basin) area, km²', 0),
    waterSystem: optText(200, 'Water system'),
    source: optText(200, 'Source'),
    mouth: optText(200, 'Mouth'),
    floodMethod: optText(200, 'Flood control method'),
    floodLevel: optNumber('Flood level, m'),
    limitedFloodLevel: optNumber('Flood-limited water level, m'),
    location: optText(200, 'Location'),
    averageGradient: optNumber('Average gradient, ‰'),
    networkDensity: optNumber('River network density, km/km²', 0),
    bottomWidth: optNumber('Bottom width, m', 0),
    safetyLevel: optText(50, 'Safety level'),
    classification: optText(100, 'Classification'),
    plainType: optText(100, 'Plain type'),
    flowRegion: optText(200, 'Flow region'),
  })
  .strict();

export const tailingsDetailsSchema = z
  .object({
    tailingsType: optChoice(TAILINGS_TYPES, 'Tailings pond type'),
    status: optChoice(TAILINGS_STATUSES, 'Pond status'),
  })
  .strict();

const m = (what: string) => optNumber(`${what}, m`, 0);
const unit = (what: string) => optText(200, what);

export const bridgeDetailsSchema = z
  .object({
    code: zText(100).describe('Bridge code (required)'),
    custodyUnit: zText(200).describe('Custody unit (required)'),
    bridgeType: z.enum(BRIDGE_TYPES).describe('Bridge type (required)'),
    archType: optChoice(BRIDGE_ARCH_TYPES, 'Arch kind (arch bridges only)'),
    location: optText(200, 'Location'),
    routeName: optText(200, 'Route name'),
    routeNumber: optText(50, 'Route number'),
    routeType: optText(50, 'Route type'),
    use: optText(100, 'Use'),
    buildDate: optDate('Build date'),
    nature: optText(100, 'Nature'),
    technicalStatus: optText(50, 'Technical status (condition class)'),
    crossingFeature: optText(200, 'Crossing feature (what the bridge crosses)'),
    roadLevel: optText(50, 'Road (highway) level'),
    sizeClass: optChoice(BRIDGE_SIZE_CLASSES, 'Size class'),
    designLoad: optText(100, 'Design load'),
    currentLoad: optText(100, 'Current load'),
    upperStructureMaterial: optText(100, 'Upper structure material'),
    pierMaterial: optText(100, 'Pier material'),
    abutmentMaterial: optText(100, 'Abutment material'),
    sectionForm: optText(100, 'Section form'),
    bearingType: optText(100, 'Bearing type'),
    pierFoundation: optText(100, 'Pier foundation'),
    abutmentFoundation: optText(100, 'Abutment foundation'),
    pavement: optText(100, 'Deck pavement'),
    expansionJoint: optText(100, 'Expansion joint'),
    deckPosition: optText(50, 'Deck position'),
    deckTotalWidth: m('Deck total width'),
    carriagewayWidth: m('Deck clear (carriageway) width'),
    clearHeight: m('Clear height'),
    heightLimit: m('Height limit'),
    underClearance: m('Under-clearance height'),
    spanRatio: optNumber('Rise-to-span ratio', 0),
    deckGrade: optNumber('Deck cross grade, %'),
    designSpeed: optNumber('Design speed, km/h', 0),
    trafficControl: optText(500, 'Traffic control measures'),
    assessedLast3Years: optFlag('Assessed in the last 3 years'),
    totalLength: m('Total length'),
    deckLength: m('Deck length'),
    spanCount: optCount('Number of spans'),
    mainSpan: m('Main span'),
    spanComposition: optText(200, 'Span composition, e.g. 3×30 m'),
    totalWidth: m('Total width'),
    bridgeHeight: m('Bridge height'),
    maxPierHeight: m('Maximum pier height'),
    curveRadius: m('Curve radius'),
    longitudinalGrade: optNumber('Longitudinal grade, %'),
    propertyUnit: unit('Property unit'),
    designUnit: unit('Design unit'),
    designer: optText(100, 'Designer'),
    constructionUnit: unit('Construction unit'),
    constructionPrincipal: optText(100, 'Construction principal'),
    supervisionUnit: unit('Supervision unit'),
  })
  .strict()
  .superRefine((d, ctx) => {
    if (d.archType !== undefined && !BRIDGE_ARCH_BRIDGE_TYPES.includes(d.bridgeType)) {
      ctx.addIssue({ code: 'custom', path: ['archType'], message: 'only arch bridges take an arch kind' });
    }
  });

/** The details schema of each kind. */
export const platformDetailsSchemas = {
  disaster: disasterDetailsSchema,
  sideslope: sideslopeDetailsSchema,
  reservoir: reservoirDetailsSchema,
  river: riverDetailsSchema,
  tailings: tailingsDetailsSchema,
  bridge: bridgeDetailsSchema,
} as const satisfies Record<PlatformType, z.ZodType>;

/** The validated details of one kind, e.g. `PlatformDetailsOf<'bridge'>`. */
export type PlatformDetailsOf<T extends PlatformType> = z.output<(typeof platformDetailsSchemas)[T]>;
