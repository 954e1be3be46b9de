import type { ReportBlock, ReportCellValue, ReportDocument } from '@geosentry/contract';

type TableBlock = Extract<ReportBlock, { kind: 'table' }>;

/** A table whose rows may come one by one (a year of minute readings), so a renderer holds few of them at once. */
export type StreamingTableBlock = Omit<TableBlock, 'rows'> & {
  rows: readonly ReportCellValue[][] | AsyncIterable<ReportCellValue[]>;
};
export type StreamingReportBlock = Exclude<ReportBlock, TableBlock> | StreamingTableBlock;

/**
 * A ReportDocument whose tables may stream their rows. The renderers take it as it is; an AsyncIterable is read
 * once, front to back (a renderer never buffers all of it: xlsx rows are committed as they come, PDF pages are
 * written as they fill).
 */
export type StreamingReportDocument = Omit<ReportDocument, 'sections'> & {
  sections: { title: string; blocks: StreamingReportBlock[] }[];
};

export type RenderFormat = 'xlsx' | 'pdf' | 'docx';

/** Iterates a table's rows, arrays and async iterables alike. */
export async function* rowsOf(rows: StreamingTableBlock['rows']): AsyncGenerator<ReportCellValue[]> {
  if (Array.isArray(rows)) {
    for (const r of rows as ReportCellValue[][]) yield r;
    return;
  }
  for await (const r of rows as AsyncIterable<ReportCellValue[]>) yield r;
}
