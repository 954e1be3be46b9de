// Safety supervision (/archives, spec §2): dynamic supervision (inspections of any site), plan management
// (emergency and prevention plans with versions, approval, validity and drills) and security file management
// (a file manager per site). The constants of its forms, lists and labels.

/** What an inspection's checked item showed. */
export const INSPECTION_ITEM_RESULTS = ['ok', 'problem'] as const;
export type InspectionItemResult = (typeof INSPECTION_ITEM_RESULTS)[number];
/** At most this many items checked, problems found, and photos of one problem. */
export const MAX_INSPECTION_ITEMS = 30;
export const MAX_INSPECTION_PROBLEMS = 20;
export const MAX_PROBLEM_PHOTOS = 3;

/** Plan kinds: emergency (response) plans and prevention plans. */
export const PLAN_KINDS = ['emergency', 'prevention'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
/**
 * A plan's status, from its newest approved version: draft (none approved yet), valid, expiring (within the
 * plan's reminder days of the end of validity), expired.
 */
export const PLAN_STATUSES = ['draft', 'valid', 'expiring', 'expired'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
/** Files of a plan version or a drill (upload kind attachment: Word, PDF, jpg, png), at most 3 (spec §5). */
export const MAX_PLAN_FILES = 3;

/** Document types of the security file manager; certificate and licence carry an expiry date. */
export const SAFETY_DOC_TYPES = [
  'certificate',
  'licence',
  'regulation',
  'procedure',
  'training',
  'inspectionReport',
  'drawing',
  'other',
] as const;
export type SafetyDocType = (typeof SAFETY_DOC_TYPES)[number];
export const EXPIRING_DOC_TYPES: readonly SafetyDocType[] = ['certificate', 'licence'];
/** A document's expiry status (none: it does not expire). */
export const EXPIRY_STATUSES = ['none', 'valid', 'expiring', 'expired'] as const;
export type ExpiryStatus = (typeof EXPIRY_STATUSES)[number];

/** Days before the end of validity (plans) or the expiry (certificates) that the reminder is sent; default 30. */
export const DEFAULT_REMIND_DAYS = 30;
export const MAX_REMIND_DAYS = 365;
