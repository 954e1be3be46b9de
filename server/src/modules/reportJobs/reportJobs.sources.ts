// The report features this module renders, handed over by app.ts (their services, from their index.ts): one
// call per kind, the same the report's own file route makes, with the parameters checked by that route's schema.
import { z } from 'zod';
import { REPORT_KIND_QUERY, type Language, type ReportDocument, type ReportKind } from '@geosentry/contract';
import type { SessionUser } from '../../platform/auth/access.ts';

type Q<K extends ReportKind> = z.output<(typeof REPORT_KIND_QUERY)[K]>;
interface Built {
  document: ReportDocument;
}

/** The report features' services, as app.ts builds them. */
export interface ReportSources {
  moduleData: { moduleReport(user: SessionUser, lang: Language, q: Q<'moduleData'>): Promise<Built> };
  vibration: { report(user: SessionUser, lang: Language, q: Q<'vibration'>): Promise<Built> };
  reservoir: { comprehensive(user: SessionUser, lang: Language, q: Q<'reservoir'>): Promise<Built> };
  general: { report(user: SessionUser, lang: Language, q: Q<'general'>): Promise<Built> };
}

/** Checks a report's parameters with its route's schema (a ZodError answers as a validation error). */
export function parseReportParams(kind: ReportKind, raw: Record<string, unknown>): Q<ReportKind> {
  return REPORT_KIND_QUERY[kind].parse(raw) as Q<ReportKind>;
}

/**
 * Builds a report's document as the user `user` (his rights and data scope now): a site outside his scope
 * answers as the report route does (platformNotFound), never a document.
 */
export async function buildReport(
  s: ReportSources,
  kind: ReportKind,
  user: SessionUser,
  lang: Language,
  params: Record<string, unknown>,
): Promise<ReportDocument> {
  switch (kind) {
    case 'moduleData':
      return (await s.moduleData.moduleReport(user, lang, REPORT_KIND_QUERY.moduleData.parse(params))).document;
    case 'vibration':
      return (await s.vibration.report(user, lang, REPORT_KIND_QUERY.vibration.parse(params))).document;
    case 'reservoir':
      return (await s.reservoir.comprehensive(user, lang, REPORT_KIND_QUERY.reservoir.parse(params))).document;
    case 'general':
      return (await s.general.report(user, lang, REPORT_KIND_QUERY.general.parse(params))).document;
  }
}
