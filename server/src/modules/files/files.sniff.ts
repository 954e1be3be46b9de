import zlib from 'node:zlib';
import type { FileType } from '@geosentry/contract';
import { zipBomb, zipEntries, zipRead, type ZipEntry } from '../../platform/files/zip.ts';

export { zipEntryNames } from '../../platform/files/zip.ts';

/**
 * Content checks of uploads. The type comes from the bytes, never from the name or the declared MIME type:
 *
 * - JPEG (FF D8 FF, segments walked to the end-of-image marker), PNG (signature, chunks walked to IEND), GIF
 *   (GIF87a/GIF89a, blocks walked to the trailer), BMP ('BM' with a known header size; its size field marks the end),
 *   PDF ('%PDF-' at the very start, '%%EOF' present), DOC (OLE compound file CF with a WordDocument stream),
 *   DOCX (a zip whose central directory names [Content_Types].xml and word/ entries). Anything else (SVG, HTML,
 *   executables, archives, ...) is "unknown" and refused.
 * - Polyglots and active content are refused:
 *   - images: markup or code anywhere in the file (<script, <?php, <html, <iframe, <body, javascript:), and after
 *     the image's end an archive, executable or document signature (zip, PE, ELF, rar, 7z, PDF, OLE);
 *   - PDF: the actions /JavaScript, /JS, /Launch, /EmbeddedFile, /RichMedia, /XFA (names matched after #xx escapes
 *     are decoded, in the file and inside Flate-compressed object streams), and archive/executable signatures
 *     after the last %%EOF;
 *   - DOC: VBA macros (a Macros or _VBA_PROJECT storage) and embedded OLE packages (Ole10Native);
 *   - DOCX: macros (vbaProject.bin), entries named like programs or scripts, bytes after the zip's end record,
 *     relationships that load something from outside the file (TargetMode="External" other than a hyperlink: a
 *     remote template, image or frame), and archive bombs (over 100 MB uncompressed in all, an entry over 1 MB
 *     compressed more than 100:1, or more than 10,000 entries).
 * The checks look for known signatures: they refuse the common tricks, they do not prove a file harmless.
 * Stored files are always answered with the detected type and `nosniff`, so the browser never guesses.
 */
export type SniffResult =
  | { ok: true; type: FileType }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'malformed' | 'active'; type: FileType };

const startsWith = (b: Buffer, sig: readonly number[] | string, at = 0): boolean => {
  const s = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig);
  return b.length >= at + s.length && b.subarray(at, at + s.length).equals(s);
};

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_LOCAL = 'PK\x03\x04';
const BMP_HEADER_SIZES = [12, 16, 40, 52, 56, 64, 108, 124];

/** The type named by the first bytes, before any structural check. */
export function magicType(b: Buffer): FileType | null {
  if (startsWith(b, JPEG)) return 'jpg';
  if (startsWith(b, PNG)) return 'png';
  if (startsWith(b, 'GIF87a') || startsWith(b, 'GIF89a')) return 'gif';
  if (startsWith(b, 'BM') && b.length >= 26 && BMP_HEADER_SIZES.includes(b.readUInt32LE(14))) return 'bmp';
  if (startsWith(b, '%PDF-')) return 'pdf';
  if (startsWith(b, OLE)) return 'doc';
  if (startsWith(b, ZIP_LOCAL)) return 'docx';
  return null;
}

/** Detects the type of an upload and checks it for polyglots and active content. */
export function sniff(b: Buffer): SniffResult {
  const type = magicType(b);
  if (!type) return { ok: false, reason: 'unknown' };
  const bad = (reason: 'malformed' | 'active'): SniffResult => ({ ok: false, reason, type });
  switch (type) {
    case 'jpg':
    case 'png':
    case 'gif':
    case 'bmp': {
      const end = imageEnd(type, b);
      if (end === null) return bad('malformed');
      if (hasMarkup(b) || hasForeignSignature(b.subarray(end))) return bad('active');
      return { ok: true, type };
    }
    case 'pdf':
      return checkPdf(b);
    case 'doc':
      return checkDoc(b);
    case 'docx':
      return checkDocx(b);
  }
}

// ----- images -----

function imageEnd(type: 'jpg' | 'png' | 'gif' | 'bmp', b: Buffer): number | null {
  try {
    if (type === 'jpg') return jpegEnd(b);
    if (type === 'png') return pngEnd(b);
    if (type === 'gif') return gifEnd(b);
    return bmpEnd(b);
  } catch {
    return null; // a read past the end: truncated
  }
}

/** Walks JPEG segments (skipping entropy-coded data) to the end-of-image marker; answers the offset after it. */
export function jpegEnd(b: Buffer): number | null {
  let i = 2;
  let sawFrame = false;
  let sawScan = false;
  while (i < b.length) {
    if (b[i] !== 0xff) return null;
    while (b[i] === 0xff) i++; // fill bytes
    const marker = b[i];
    if (marker === undefined) return null;
    i++;
    if (marker === 0xd9) return sawFrame && sawScan ? i : null; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // TEM, RSTn: no length
    if (i + 2 > b.length) return null;
    const len = b.readUInt16BE(i);
    if (len < 2 || i + len > b.length) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) sawFrame = true;
    i += len;
    if (marker === 0xda) {
      sawScan = true;
      // Entropy-coded data: up to the next marker that is not a stuffed 00 or a restart marker.
      for (;;) {
        const j = b.indexOf(0xff, i);
        if (j < 0 || j + 1 >= b.length) return null;
        const n = b[j + 1]!;
        if (n === 0x00 || (n >= 0xd0 && n <= 0xd7) || n === 0xff) {
          i = j + 1;
          continue;
        }
        i = j;
        break;
      }
    }
  }
  return null;
}

/** Walks PNG chunks from IHDR to IEND; answers the offset after IEND's CRC. */
export function pngEnd(b: Buffer): number | null {
  let i = 8;
  let first = true;
  while (i + 12 <= b.length) {
    const len = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    if (first && type !== 'IHDR') return null;
    first = false;
    if (!/^[A-Za-z]{4}$/.test(type)) return null;
    const next = i + 12 + len;
    if (next > b.length) return null;
    if (type === 'IEND') return next;
    i = next;
  }
  return null;
}

/** Walks GIF blocks to the trailer (3B); answers the offset after it. */
export function gifEnd(b: Buffer): number | null {
  if (b.length < 14) return null;
  let i = 13;
  const flags = b[10]!;
  if (flags & 0x80) i += 3 * 2 ** ((flags & 7) + 1);
  const subBlocks = (): boolean => {
    for (;;) {
      if (i >= b.length) return false;
      const n = b[i]!;
      i++;
      if (n === 0) return true;
      i += n;
    }
  };
  let images = 0;
  while (i < b.length) {
    const t = b[i]!;
    if (t === 0x3b) return images > 0 ? i + 1 : null;
    if (t === 0x21) {
      i += 2;
      if (!subBlocks()) return null;
    } else if (t === 0x2c) {
      if (i + 10 > b.length) return null;
      const lf = b[i + 9]!;
      i += 10;
      if (lf & 0x80) i += 3 * 2 ** ((lf & 7) + 1);
      i += 1; // LZW minimum code size
      if (!subBlocks()) return null;
      images++;
    } else return null;
  }
  return null;
}

/** A BMP ends where its header's size field says (0 there means "the whole buffer"). */
export function bmpEnd(b: Buffer): number | null {
  const size = b.readUInt32LE(2);
  const dataOffset = b.readUInt32LE(10);
  const end = size === 0 ? b.length : size;
  if (end < 26 || end > b.length || dataOffset < 26 || dataOffset >= end) return null;
  return end;
}

const MARKUP = ['<script', '<?php', '<html', '<iframe', '<body', 'javascript:'];

/** Markup or server-side code in an image (case-insensitive). */
export function hasMarkup(b: Buffer): boolean {
  const s = b.toString('latin1').toLowerCase();
  return MARKUP.some((m) => s.includes(m));
}

const FOREIGN: readonly (readonly number[] | string)[] = [
  'PK\x03\x04',
  'PK\x05\x06',
  'PK\x01\x02',
  '\x7fELF',
  'PE\x00\x00',
  'Rar!\x1a\x07',
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
  '%PDF-',
  OLE,
];

/** An archive, executable or document signature in the bytes after a file's end (or an 'MZ' program start). */
export function hasForeignSignature(trailer: Buffer): boolean {
  if (trailer.length === 0) return false;
  let k = 0;
  while (k < trailer.length && (trailer[k] === 0 || trailer[k] === 0x20 || (trailer[k]! >= 9 && trailer[k]! <= 13)))
    k++;
  if (startsWith(trailer, 'MZ', k)) return true;
  return FOREIGN.some((sig) =>
    trailer.includes(typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig)),
  );
}

// ----- PDF -----

const PDF_ACTIVE = new Set(['JavaScript', 'JS', 'Launch', 'EmbeddedFile', 'RichMedia', 'XFA']);
/** Decompressed bytes of object streams looked at, at most (a bomb guard). */
const PDF_INFLATE_BUDGET = 64 * 1024 * 1024;

/** Names (/Name) in PDF text, with #xx escapes decoded. */
function pdfNames(s: string): Set<string> {
  const out = new Set<string>();
  for (const m of s.matchAll(/\/([^\s/[\]<>(){}%]+)/g)) {
    out.add(m[1]!.replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
  }
  return out;
}

const hasActiveName = (s: string): boolean => [...pdfNames(s)].some((n) => PDF_ACTIVE.has(n));

function checkPdf(b: Buffer): SniffResult {
  const s = b.toString('latin1');
  const eof = s.lastIndexOf('%%EOF');
  if (eof < 0) return { ok: false, reason: 'malformed', type: 'pdf' };
  if (hasForeignSignature(b.subarray(eof + 5))) return { ok: false, reason: 'active', type: 'pdf' };
  if (hasActiveName(s)) return { ok: false, reason: 'active', type: 'pdf' };
  // Object streams (PDF 1.5) hold dictionaries compressed: look inside the Flate-compressed ones.
  let budget = PDF_INFLATE_BUDGET;
  for (const m of s.matchAll(/\/Type\s*\/ObjStm\b/g)) {
    const at = m.index ?? 0;
    const dictStart = s.lastIndexOf('obj', at);
    const streamAt = s.indexOf('stream', at);
    if (dictStart < 0 || streamAt < 0) return { ok: false, reason: 'malformed', type: 'pdf' };
    const dict = s.slice(dictStart, streamAt);
    let start = streamAt + 'stream'.length;
    if (s[start] === '\r') start++;
    if (s[start] === '\n') start++;
    const end = s.indexOf('endstream', start);
    if (end < 0) return { ok: false, reason: 'malformed', type: 'pdf' };
    if (!/\/Filter\s*(\[\s*)?\/(FlateDecode|Fl)\b/.test(dict)) {
      // Uncompressed object streams were scanned above; other filters cannot be checked here.
      if (/\/Filter\b/.test(dict)) return { ok: false, reason: 'active', type: 'pdf' };
      continue;
    }
    let inflated: Buffer;
    try {
      inflated = zlib.inflateSync(b.subarray(start, end), {
        maxOutputLength: Math.max(1, budget),
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      });
    } catch {
      return { ok: false, reason: 'malformed', type: 'pdf' };
    }
    budget -= inflated.length;
    if (budget <= 0) return { ok: false, reason: 'malformed', type: 'pdf' };
    if (hasActiveName(inflated.toString('latin1'))) return { ok: false, reason: 'active', type: 'pdf' };
  }
  return { ok: true, type: 'pdf' };
}

// ----- Word -----

/**
 * Does an OLE compound file have a directory entry of this name? Entries are 128 bytes, aligned to 128 from the
 * start of the file (sectors are 512 or 4096 bytes), the UTF-16LE name first and its byte length (with the
 * terminating NUL) at offset 64: matching all of that keeps text inside the document from counting.
 */
export function oleHasEntry(b: Buffer, name: string): boolean {
  const needle = Buffer.from(`${name}\0`, 'utf16le');
  for (let at = b.indexOf(needle, 512); at >= 0; at = b.indexOf(needle, at + 2)) {
    if (at % 128 === 0 && at + 66 <= b.length && b.readUInt16LE(at + 64) === needle.length) return true;
  }
  return false;
}

function checkDoc(b: Buffer): SniffResult {
  if (b.length < 1024) return { ok: false, reason: 'malformed', type: 'doc' };
  // An OLE compound file is also the container of xls, ppt, msi, ...: a Word document has a WordDocument stream.
  if (!oleHasEntry(b, 'WordDocument')) return { ok: false, reason: 'malformed', type: 'doc' };
  if (['Macros', '_VBA_PROJECT', 'VBA', '\x01Ole10Native'].some((n) => oleHasEntry(b, n)))
    return { ok: false, reason: 'active', type: 'doc' };
  return { ok: true, type: 'doc' };
}

const PROGRAM_ENTRY = /\.(exe|dll|com|scr|bat|cmd|ps1|vbs|vbe|js|jse|wsf|hta|jar|msi|sh|lnk)$/i;

/** A relationship that Word fetches from elsewhere when the document opens; hyperlinks only open on a click. */
const EXTERNAL = /TargetMode\s*=\s*["']External["']/i;
const HYPERLINK = /\bType\s*=\s*["'][^"']*\/hyperlink["']/i;
const RELS_MAX_BYTES = 4 * 1024 * 1024;

/** Does any relationship part (.rels) load something from outside the file (a remote template, image, frame)? */
function externalRelationship(b: Buffer, entries: readonly ZipEntry[]): boolean | null {
  for (const e of entries) {
    if (!/\.rels$/i.test(e.name)) continue;
    const xml = zipRead(b, e, RELS_MAX_BYTES);
    if (!xml) return null;
    for (const m of xml.toString('utf8').matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
      if (EXTERNAL.test(m[0]) && !HYPERLINK.test(m[0])) return true;
    }
  }
  return false;
}

function checkDocx(b: Buffer): SniffResult {
  const entries = zipEntries(b);
  if (!entries) return { ok: false, reason: 'malformed', type: 'docx' };
  const names = entries.map((e) => e.name);
  if (!names.includes('[Content_Types].xml') || !names.some((n) => n.startsWith('word/')))
    return { ok: false, reason: 'malformed', type: 'docx' };
  if (zipBomb(entries)) return { ok: false, reason: 'malformed', type: 'docx' };
  if (names.some((n) => /vbaProject\.bin$/i.test(n) || /vbaData\.xml$/i.test(n) || PROGRAM_ENTRY.test(n)))
    return { ok: false, reason: 'active', type: 'docx' };
  const external = externalRelationship(b, entries);
  if (external === null) return { ok: false, reason: 'malformed', type: 'docx' };
  if (external) return { ok: false, reason: 'active', type: 'docx' };
  return { ok: true, type: 'docx' };
}
