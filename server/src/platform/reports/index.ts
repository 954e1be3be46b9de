// The report renderers (issue 17): a ReportDocument (contract/src/reportDocument) drawn as xlsx or PDF, and sent
// as a download. Report features build the document; they never write a file format themselves.
//
//   import { renderReport, sendReport, reportFileName } from '../../platform/reports/index.ts';
//   // in a route (defineRoute handler, after the scope checks):
//   return sendReport(c.reply, doc, 'pdf', { fileName: body.fileName });
//   // in a job handler (platform/jobs), the result file kept JOB_RESULT_DAYS:
//   const tmp = await c.files.tempPath();
//   await renderReport(doc, 'xlsx', fs.createWriteStream(tmp));
//   const id = await c.files.adopt(tmp, { ownerId: c.ownerId, name: reportFileName(doc.fileName, 'xlsx'),
//                                          ext: 'xlsx', size: (await fs.promises.stat(tmp)).size }, days);
//   return { resultFile: id };
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Writable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { ReportDocument } from '@geosentry/contract';
import { renderPdf, type ImageReader } from './pdf.ts';
import { renderXlsx } from './xlsx.ts';
import { renderDocx } from './docx.ts';
import { rendererLabels } from './labels.ts';
import type { RenderFormat, StreamingReportDocument } from './types.ts';

export type { StreamingReportDocument, StreamingReportBlock, StreamingTableBlock, RenderFormat } from './types.ts';
export type { ImageReader } from './pdf.ts';
export { chartSvg, layoutChart, PALETTE } from './chart.ts';
export { formatTime, cellText } from './format.ts';
export { reportFonts } from './fonts.ts';
export { chartPng } from './raster.ts';

/** The file formats the renderers write. */
export const RENDER_FORMATS = ['xlsx', 'pdf', 'docx'] as const;

export const CONTENT_TYPES: Record<RenderFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export interface RenderOptions {
  /** Reads the pictures of an `images` block (PDF); the caller decides whose files it may read. */
  readImage?: ImageReader;
}

/**
 * Writes the document in the format to `out` (ended when the promise resolves). Tables whose rows are an
 * AsyncIterable are read once, front to back: xlsx commits each row as it comes (bounded memory); the PDF keeps
 * its pages until the end to number them "x / y".
 */
export async function renderReport(
  doc: ReportDocument | StreamingReportDocument,
  format: RenderFormat,
  out: Writable,
  opts: RenderOptions = {},
): Promise<void> {
  const d = doc as StreamingReportDocument;
  if (format === 'xlsx') {
    const l = rendererLabels(d.language);
    await renderXlsx(d, out, { timeZone: l.timeZone, generatedAt: l.generatedAt });
    await new Promise<void>((resolve, reject) => {
      if (out.writableFinished) return resolve();
      out.once('finish', resolve);
      out.once('error', reject);
    });
    return;
  }
  if (format === 'pdf') return renderPdf(d, out, opts.readImage);
  if (format === 'docx') {
    const buf = await renderDocx(d, opts.readImage);
    await new Promise<void>((resolve, reject) => {
      out.once('error', reject);
      out.end(buf, () => resolve());
    });
    return;
  }
  throw new Error(`report format ${format} is not rendered`);
}

/** Renders into memory (small documents, tests). */
export async function renderReportBuffer(
  doc: ReportDocument | StreamingReportDocument,
  format: RenderFormat,
  opts: RenderOptions = {},
): Promise<Buffer> {
  const { PassThrough } = await import('node:stream');
  const pass = new PassThrough();
  const chunks: Buffer[] = [];
  pass.on('data', (c: Buffer) => chunks.push(c));
  await renderReport(doc, format, pass, opts);
  return Buffer.concat(chunks);
}

/**
 * A safe file name to save under: the asked name (a client's `fileName`) or the document's, without folders,
 * control characters or characters file systems refuse, at most 120 characters, with the format's extension.
 */
export function reportFileName(asked: string | undefined, format: RenderFormat, fallback = 'report'): string {
  const base = [...(asked ?? '')]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? '_' : ch))
    .join('')
    .replace(/\.(xlsx|pdf|docx)$/i, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 120);
  return `${base || fallback}.${format}`;
}

/** A Content-Disposition attachment: an ASCII fallback name and the exact name in RFC 5987 `filename*`. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'report';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends the document as a download from a route: rendered first into a temporary file, so a failure while
 * rendering still answers the JSON error envelope (never half a file), then streamed with its Content-Type and
 * a Content-Disposition naming `fileName` (sanitised; default the document's fileName).
 */
export async function sendReport(
  reply: FastifyReply,
  doc: ReportDocument | StreamingReportDocument,
  format: RenderFormat,
  opts: RenderOptions & { fileName?: string } = {},
): Promise<FastifyReply> {
  const tmp = path.join(os.tmpdir(), `geosentry-report-${crypto.randomBytes(12).toString('hex')}.${format}`);
  try {
    await renderReport(doc, format, fs.createWriteStream(tmp), opts);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  const size = (await fs.promises.stat(tmp)).size;
  const stream = fs.createReadStream(tmp);
  const cleanup = (): void => void fs.promises.rm(tmp, { force: true });
  stream.once('close', cleanup);
  stream.once('error', cleanup);
  reply.header('content-type', CONTENT_TYPES[format]);
  reply.header('content-length', String(size));
  reply.header('content-disposition', attachmentHeader(reportFileName(opts.fileName ?? doc.fileName, format)));
  reply.header('cache-control', 'no-store');
  return reply.send(stream);
}
