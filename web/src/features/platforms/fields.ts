import type { z } from 'zod';
import {
  BRIDGE_ARCH_BRIDGE_TYPES,
  BRIDGE_ARCH_TYPES,
  BRIDGE_SIZE_CLASSES,
  BRIDGE_TYPES,
  HAZARD_RISK_LEVELS,
  HAZARD_SCALE_GRADES,
  RESERVOIR_DAM_TYPES,
  TAILINGS_STATUSES,
  TAILINGS_TYPES,
  platformDetailsSchemas,
  type PlatformDetailsOf,
  type PlatformType,
} from '@geosentry/contract';

/**
 * The kind-specific fields of a site (spec §3), described once so the form renders every kind from the
 * same code. Labels: platforms:detail.<key>; tabs: platforms:groups.<group>; units: platforms:units.<unit>;
 * choices: platforms:options.<optionSet>.<value>. Ranges and lengths are checked against the contract's
 * schema of the kind (platformDetailsSchemas), so the form and the server agree.
 */
export type FieldType = 'number' | 'count' | 'text' | 'textarea' | 'select' | 'date' | 'flag' | 'phone';
export type UnitKey =
  | 'm'
  | 'km'
  | 'km2'
  | 'tenThousandM3'
  | 'tenThousandYuan'
  | 'permille'
  | 'percent'
  | 'kmh'
  | 'kmPerKm2'
  | 'households'
  | 'people';

export interface DetailField {
  key: string;
  type: FieldType;
  /** The tab the field sits on. */
  group: string;
  unit?: UnitKey;
  /** Required by the contract (spec §5: bridge code, custody unit and bridge type). */
  required?: boolean;
  /** The catalogue of a select, and the name of its label set. */
  options?: readonly string[];
  optionSet?: string;
  /** Takes a whole row. */
  wide?: boolean;
  /** Shown (and sent) only when this holds for the other details. */
  showIf?: (details: Record<string, unknown>) => boolean;
}

type Spec = Omit<DetailField, 'key'>;
/** Every field of the kind's schema, each described once (the compiler checks none is missing or misspelt). */
type KindSpec<T extends PlatformType> = { [K in keyof Required<PlatformDetailsOf<T>>]: Spec };

const HAZARD = 'hazard';
const THREAT = 'threat';
const PREVENTION = 'prevention';
const MONITORING = 'monitoring';

const hazardFields = {
  volume: { type: 'number', group: HAZARD, unit: 'tenThousandM3' },
  scaleGrade: { type: 'select', group: HAZARD, options: HAZARD_SCALE_GRADES, optionSet: 'scale' },
  dangerArea: { type: 'text', group: HAZARD },
  predisposingFactor: { type: 'textarea', group: HAZARD, wide: true },
  currentSituation: { type: 'textarea', group: HAZARD, wide: true },
  trend: { type: 'text', group: HAZARD, wide: true },
  threatObjectType: { type: 'text', group: THREAT },
  riskLevel: { type: 'select', group: THREAT, options: HAZARD_RISK_LEVELS, optionSet: 'risk' },
  households: { type: 'count', group: THREAT, unit: 'households' },
  people: { type: 'count', group: THREAT, unit: 'people' },
  property: { type: 'number', group: THREAT, unit: 'tenThousandYuan' },
  preventionUrgency: { type: 'text', group: PREVENTION },
  responsibleDepartment: { type: 'text', group: PREVENTION },
  responsiblePhone: { type: 'phone', group: PREVENTION },
  preventionPlan: { type: 'textarea', group: PREVENTION, wide: true },
  actionTaken: { type: 'textarea', group: PREVENTION, wide: true },
  monitor: { type: 'text', group: MONITORING },
  monitorPhone: { type: 'phone', group: MONITORING },
  authenticatedAt: { type: 'date', group: MONITORING },
  monitorInstallation: { type: 'textarea', group: MONITORING, wide: true },
} satisfies KindSpec<'disaster'>;

const disaster: KindSpec<'disaster'> = hazardFields;

const sideslope: KindSpec<'sideslope'> = {
  roadName: { type: 'text', group: 'road' },
  roadCode: { type: 'text', group: 'road' },
  segment: { type: 'text', group: 'road' },
  siteType: { type: 'text', group: 'road' },
  slopeSoil: { type: 'text', group: 'road' },
  maxSlopeHeight: { type: 'number', group: 'road', unit: 'm' },
  roadDescription: { type: 'textarea', group: 'road', wide: true },
  ...hazardFields,
};

const reservoir: KindSpec<'reservoir'> = {
  reservoirNumber: { type: 'text', group: 'reservoir' },
  damType: { type: 'select', group: 'reservoir', options: RESERVOIR_DAM_TYPES, optionSet: 'damType' },
  projectLevel: { type: 'text', group: 'reservoir' },
  completionDate: { type: 'date', group: 'reservoir' },
  dischargeMethod: { type: 'text', group: 'reservoir', wide: true },
  totalCapacity: { type: 'number', group: 'levels', unit: 'tenThousandM3' },
  floodStorageCapacity: { type: 'number', group: 'levels', unit: 'tenThousandM3' },
  floodLevel: { type: 'number', group: 'levels', unit: 'm' },
  limitedFloodLevel: { type: 'number', group: 'levels', unit: 'm' },
  elevation: { type: 'number', group: 'levels', unit: 'm' },
  damHeight: { type: 'number', group: 'dam', unit: 'm' },
  damWidth: { type: 'number', group: 'dam', unit: 'm' },
  radius: { type: 'number', group: 'dam', unit: 'm' },
  damSafetyLevel: { type: 'text', group: 'dam' },
  highestAlertRatio: { type: 'number', group: 'dam' },
};

const river: KindSpec<'river'> = {
  classification: { type: 'text', group: 'river' },
  waterSystem: { type: 'text', group: 'river' },
  source: { type: 'text', group: 'river' },
  mouth: { type: 'text', group: 'river' },
  location: { type: 'text', group: 'river' },
  flowRegion: { type: 'text', group: 'river' },
  plainType: { type: 'text', group: 'river' },
  length: { type: 'number', group: 'channel', unit: 'km' },
  basinArea: { type: 'number', group: 'channel', unit: 'km2' },
  averageGradient: { type: 'number', group: 'channel', unit: 'permille' },
  networkDensity: { type: 'number', group: 'channel', unit: 'kmPerKm2' },
  bottomWidth: { type: 'number', group: 'channel', unit: 'm' },
  floodMethod: { type: 'text', group: 'flood' },
  safetyLevel: { type: 'text', group: 'flood' },
  floodLevel: { type: 'number', group: 'flood', unit: 'm' },
  limitedFloodLevel: { type: 'number', group: 'flood', unit: 'm' },
};

const tailings: KindSpec<'tailings'> = {
  tailingsType: { type: 'select', group: 'tailings', options: TAILINGS_TYPES, optionSet: 'tailingsType' },
  status: { type: 'select', group: 'tailings', options: TAILINGS_STATUSES, optionSet: 'tailingsStatus' },
};

const isArchBridge = (d: Record<string, unknown>): boolean =>
  typeof d.bridgeType === 'string' && BRIDGE_ARCH_BRIDGE_TYPES.includes(d.bridgeType);
const M = { type: 'number', unit: 'm' } as const;

const bridge: KindSpec<'bridge'> = {
  // Basics
  code: { type: 'text', group: 'basics', required: true },
  custodyUnit: { type: 'text', group: 'basics', required: true },
  bridgeType: { type: 'select', group: 'basics', required: true, options: BRIDGE_TYPES, optionSet: 'bridgeType' },
  archType: {
    type: 'select',
    group: 'basics',
    options: BRIDGE_ARCH_TYPES,
    optionSet: 'archType',
    showIf: isArchBridge,
  },
  sizeClass: { type: 'select', group: 'basics', options: BRIDGE_SIZE_CLASSES, optionSet: 'sizeClass' },
  location: { type: 'text', group: 'basics' },
  routeName: { type: 'text', group: 'basics' },
  routeNumber: { type: 'text', group: 'basics' },
  routeType: { type: 'text', group: 'basics' },
  roadLevel: { type: 'text', group: 'basics' },
  use: { type: 'text', group: 'basics' },
  nature: { type: 'text', group: 'basics' },
  buildDate: { type: 'date', group: 'basics' },
  technicalStatus: { type: 'text', group: 'basics' },
  crossingFeature: { type: 'text', group: 'basics' },
  designLoad: { type: 'text', group: 'basics' },
  currentLoad: { type: 'text', group: 'basics' },
  designSpeed: { type: 'number', group: 'basics', unit: 'kmh' },
  assessedLast3Years: { type: 'flag', group: 'basics' },
  trafficControl: { type: 'textarea', group: 'basics', wide: true },
  // Structure
  upperStructureMaterial: { type: 'text', group: 'structure' },
  pierMaterial: { type: 'text', group: 'structure' },
  abutmentMaterial: { type: 'text', group: 'structure' },
  sectionForm: { type: 'text', group: 'structure' },
  bearingType: { type: 'text', group: 'structure' },
  pierFoundation: { type: 'text', group: 'structure' },
  abutmentFoundation: { type: 'text', group: 'structure' },
  pavement: { type: 'text', group: 'structure' },
  expansionJoint: { type: 'text', group: 'structure' },
  deckPosition: { type: 'text', group: 'structure' },
  // Dimensions
  totalLength: { ...M, group: 'dimensions' },
  deckLength: { ...M, group: 'dimensions' },
  spanCount: { type: 'count', group: 'dimensions' },
  mainSpan: { ...M, group: 'dimensions' },
  spanComposition: { type: 'text', group: 'dimensions' },
  totalWidth: { ...M, group: 'dimensions' },
  deckTotalWidth: { ...M, group: 'dimensions' },
  carriagewayWidth: { ...M, group: 'dimensions' },
  bridgeHeight: { ...M, group: 'dimensions' },
  maxPierHeight: { ...M, group: 'dimensions' },
  clearHeight: { ...M, group: 'dimensions' },
  heightLimit: { ...M, group: 'dimensions' },
  underClearance: { ...M, group: 'dimensions' },
  curveRadius: { ...M, group: 'dimensions' },
  spanRatio: { type: 'number', group: 'dimensions' },
  deckGrade: { type: 'number', group: 'dimensions', unit: 'percent' },
  longitudinalGrade: { type: 'number', group: 'dimensions', unit: 'percent' },
  // Units
  propertyUnit: { type: 'text', group: 'units' },
  designUnit: { type: 'text', group: 'units' },
  designer: { type: 'text', group: 'units' },
  constructionUnit: { type: 'text', group: 'units' },
  constructionPrincipal: { type: 'text', group: 'units' },
  supervisionUnit: { type: 'text', group: 'units' },
};

const SPECS: { [T in PlatformType]: KindSpec<T> } = { disaster, sideslope, reservoir, river, tailings, bridge };

/** The kind's own fields, in form order. */
export function fieldsFor(kind: PlatformType): DetailField[] {
  return Object.entries(SPECS[kind] as Record<string, Spec>).map(([key, spec]) => ({ key, ...spec }));
}

/** The kind's tabs, in the order their first field appears. */
export function groupsFor(kind: PlatformType): string[] {
  return [...new Set(fieldsFor(kind).map((f) => f.group))];
}

/** The contract's schema of one field of a kind. */
export function fieldSchema(kind: PlatformType, key: string): z.ZodType | undefined {
  const shape = (platformDetailsSchemas[kind] as unknown as { shape: Record<string, z.ZodType> }).shape;
  return shape[key];
}

interface Limits {
  min?: number;
  max?: number;
  maxLength?: number;
}

/** Input hints read from the contract's field schema (range of numbers, length of texts); empty when unknown. */
export function fieldLimits(kind: PlatformType, key: string): Limits {
  type Node = {
    def?: { type?: string; out?: Node; innerType?: Node };
    minValue?: unknown;
    maxValue?: unknown;
    maxLength?: unknown;
  };
  let s = fieldSchema(kind, key) as Node | undefined;
  for (let i = 0; i < 4 && s?.def; i++) {
    if (s.def.type === 'pipe' && s.def.out) s = s.def.out;
    else if (s.def.type === 'optional' && s.def.innerType) s = s.def.innerType;
    else break;
  }
  const finite = (v: unknown): number | undefined =>
    typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined;
  const out: Limits = {};
  const min = finite(s?.minValue);
  const max = finite(s?.maxValue);
  const maxLength = finite(s?.maxLength);
  if (min !== undefined) out.min = min;
  if (max !== undefined) out.max = max;
  if (maxLength !== undefined) out.maxLength = maxLength;
  return out;
}
