// The report document (issue 17): one neutral description of a report, built by each report feature
// (reports, vibration, reservoir, generalReport) and drawn three ways from the same object: on screen by the
// web's ReportView, and as xlsx, PDF and docx by the server's renderers (server/src/platform/reports).
// A report feature never writes a file format itself; a renderer never computes a number.
//
// Texts are already translated into the report's language; numbers are already rounded as decimals (the
// column's `decimals` says how many to show, a renderer pads, never rounds again); times are ISO UTC strings
// shown in the document's time zone, which the document names.
import { z } from 'zod';

export const REPORT_DOCUMENT_FORMATS = ['json', 'xlsx', 'pdf', 'docx'] as const;
export type ReportFormat = (typeof REPORT_DOCUMENT_FORMATS)[number];

/** A table cell: text, a number (already rounded), an ISO time (kind 'time' columns), or empty. */
export const reportCellValueSchema = z.union([z.string(), z.number(), z.null()]);
export type ReportCellValue = z.infer<typeof reportCellValueSchema>;

export const reportColumnSchema = z.object({
  label: z.string(),
  /** Unit shown after the label, "Displacement (mm)". */
  unit: z.string().optional(),
  /** text (default), number (right-aligned, `decimals` places), time (ISO UTC shown in the document's zone). */
  kind: z.enum(['text', 'number', 'time']).optional(),
  decimals: z.number().int().min(0).max(6).optional(),
  /** Relative width hint (characters); renderers may shrink to fit the page. */
  width: z.number().positive().optional(),
});
export type ReportColumn = z.infer<typeof reportColumnSchema>;

/** One series of a chart: [x, y] points; x is epoch milliseconds for time axes, a number otherwise. */
export const reportSeriesSchema = z.object({
  name: z.string(),
  points: z.array(z.tuple([z.number(), z.number().nullable()])),
  /** '#rrggbb'; renderers pick from one palette when absent. */
  colour: z.string().optional(),
  style: z.enum(['line', 'bar', 'scatter', 'step']).optional(),
  dashed: z.boolean().optional(),
});
export type ReportSeries = z.infer<typeof reportSeriesSchema>;

export const reportAxisSchema = z.object({
  label: z.string().optional(),
  unit: z.string().optional(),
  /** time: epoch ms shown in the document's zone; value: linear; log: base-10 logarithmic; category: x = index. */
  scale: z.enum(['time', 'value', 'log', 'category']),
  min: z.number().optional(),
  max: z.number().optional(),
  /** Category names (scale 'category'), x = index into this list. */
  categories: z.array(z.string()).optional(),
});

export const reportChartSchema = z.object({
  title: z.string(),
  x: reportAxisSchema,
  y: reportAxisSchema,
  series: z.array(reportSeriesSchema),
  /** Horizontal lines: alert thresholds, flood levels (colour '#rrggbb'). */
  lines: z.array(z.object({ label: z.string(), value: z.number(), colour: z.string().optional() })).optional(),
});
export type ReportChart = z.infer<typeof reportChartSchema>;

export const reportBlockSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('heading'),
    text: z.string(),
    level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  }),
  z.object({ kind: z.literal('paragraph'), text: z.string() }),
  /** A card of label: value pairs (site card, report header). */
  z.object({ kind: z.literal('fields'), fields: z.array(z.object({ label: z.string(), value: z.string() })) }),
  z.object({
    kind: z.literal('table'),
    caption: z.string().optional(),
    columns: z.array(reportColumnSchema),
    rows: z.array(z.array(reportCellValueSchema)),
    /** Rows drawn bold (totals, summaries), by index into rows. */
    emphasis: z.array(z.number().int()).optional(),
  }),
  z.object({ kind: z.literal('chart'), chart: reportChartSchema }),
  /** Pictures side by side (image comparison): the files module's id of a stored picture, its date and a note. */
  z.object({
    kind: z.literal('images'),
    images: z.array(
      z.object({
        fileId: z.string(),
        caption: z.string(),
        takenAt: z.string().nullable(),
        note: z.string().optional(),
      }),
    ),
  }),
  z.object({ kind: z.literal('pageBreak') }),
]);
export type ReportBlock = z.infer<typeof reportBlockSchema>;

export const reportDocumentSchema = z.object({
  title: z.string(),
  subtitle: z.string().optional(),
  language: z.enum(['en', 'zh', 'ko']),
  /** IANA zone every time of the document is shown in (named in the header). */
  timeZone: z.string(),
  generatedAt: z.string(),
  /** Header card: site, period (with its zone), devices, template. */
  meta: z.array(z.object({ label: z.string(), value: z.string() })),
  /** Sections; an xlsx renderer gives each section with a table its own sheet (named after the section). */
  sections: z.array(z.object({ title: z.string(), blocks: z.array(reportBlockSchema) })),
  /** File name without extension, e.g. "report-12-gnss-2026-11". */
  fileName: z.string(),
});
export type ReportDocument = z.infer<typeof reportDocumentSchema>;
export * from './words.ts';
