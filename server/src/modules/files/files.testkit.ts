import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { UploadAnswer } from '@geosentry/contract';
import type { TestApp } from '../../../test/harness.ts';

/** Test fixtures of the files feature: minimal valid files of every accepted type, and multipart bodies. */

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u16le = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32le = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A 1x1 RGBA PNG; `padding` adds a private ancillary chunk of that many bytes (to make it large). */
export function png(padding = 0): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const idat = zlib.deflateSync(Buffer.from([0, 255, 0, 0, 255]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...(padding ? [pngChunk('teST', Buffer.alloc(padding, 7))] : []),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1x1 grey baseline JPEG (decodable: one DC and one AC Huffman table, one block). */
export function jpeg(): Buffer {
  const seg = (marker: number, body: Buffer): Buffer =>
    Buffer.concat([Buffer.from([0xff, marker]), u16(body.length + 2), body]);
  const oneCode = (tc: number): Buffer => Buffer.from([tc, 1, ...Array<number>(15).fill(0), 0]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    seg(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    seg(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    seg(0xc0, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0])),
    seg(0xc4, Buffer.concat([oneCode(0x00), oneCode(0x10)])),
    seg(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x3f]),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A 1x1 GIF89a. */
export const gif = (): Buffer => Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A 1x1 24-bit BMP. */
export function bmp(): Buffer {
  return Buffer.concat([
    Buffer.from('BM', 'latin1'),
    u32le(58),
    u32le(0),
    u32le(54),
    u32le(40),
    u32le(1),
    u32le(1),
    u16le(1),
    u16le(24),
    u32le(0),
    u32le(4),
    u32le(2835),
    u32le(2835),
    u32le(0),
    u32le(0),
    Buffer.from([0, 0, 255, 0]),
  ]);
}

/** A one-page PDF; `catalogExtra` is added to the catalog dictionary. */
export function pdf(catalogExtra = '', tail = ''): Buffer {
  return Buffer.from(
    [
      '%PDF-1.4',
      `1 0 obj << /Type /Catalog /Pages 2 0 R ${catalogExtra} >> endobj`,
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n') + tail,
    'latin1',
  );
}

/** A PDF whose action dictionary hides in a Flate-compressed object stream. */
export function pdfWithObjectStream(hidden: string): Buffer {
  const body = zlib.deflateSync(Buffer.from(`4 0 ${hidden}`, 'latin1'));
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.5\n1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >> endobj\n` +
        `5 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${body.length} >>\nstream\n`,
      'latin1',
    ),
    body,
    Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

/** A zip of stored (uncompressed) entries; entries named in `deflate` are deflated. */
export function zip(entries: Record<string, string | Buffer>, deflate: readonly string[] = []): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const raw = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const deflated = deflate.includes(name);
    const data = deflated ? zlib.deflateRawSync(raw, { level: 9 }) : raw;
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(raw);
    const common = Buffer.concat([
      u16le(20),
      u16le(0x0800),
      u16le(deflated ? 8 : 0),
      u16le(0),
      u16le(0x21),
      u32le(crc),
      u32le(data.length),
      u32le(raw.length),
      u16le(nameBytes.length),
      u16le(0),
    ]);
    const local = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), common, nameBytes, data]);
    centrals.push(
      Buffer.concat([
        Buffer.from('PK\x01\x02', 'latin1'),
        u16le(20),
        common,
        u16le(0),
        u16le(0),
        u16le(0),
        u32le(0),
        u32le(offset),
        nameBytes,
      ]),
    );
    locals.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.concat([
    Buffer.from('PK\x05\x06', 'latin1'),
    u16le(0),
    u16le(0),
    u16le(centrals.length),
    u16le(centrals.length),
    u32le(cd.length),
    u32le(offset),
    u16le(0),
  ]);
  return Buffer.concat([...locals, cd, eocd]);
}

/** A minimal Word (docx) document. */
export function docx(extra: Record<string, string | Buffer> = {}, deflate: readonly string[] = []): Buffer {
  return zip(
    {
      '[Content_Types].xml':
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      '_rels/.rels':
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      'word/document.xml':
        '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Inspection report</w:t></w:r></w:p></w:body></w:document>',
      ...extra,
    },
    deflate,
  );
}

/**
 * An OLE compound file shaped like a Word 97 document: the header, then a directory sector holding the root
 * entry and the named streams (the structure the server checks; not a document Word would open).
 */
export function doc(streams: string[] = ['WordDocument', '1Table']): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  const dir = Buffer.alloc(512);
  ['Root Entry', ...streams].slice(0, 4).forEach((name, i) => {
    const n = Buffer.from(`${name}\0`, 'utf16le');
    n.copy(dir, i * 128);
    dir.writeUInt16LE(n.length, i * 128 + 64);
    dir[i * 128 + 66] = i === 0 ? 5 : 2;
  });
  return Buffer.concat([header, dir, Buffer.alloc(512)]);
}

export interface FormPart {
  name: string;
  value?: string;
  filename?: string;
  data?: Buffer;
  type?: string;
}

/** A multipart/form-data body built by hand. */
export function multipart(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----geosentry${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.filename !== undefined) head += `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), p.data ?? Buffer.from(p.value ?? '', 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const UPLOAD = '/api/v2/file/upload';

/** Sends an upload; answers the envelope. */
export async function upload<T = UploadAnswer>(
  t: TestApp,
  token: string,
  fields: Record<string, string>,
  files: { filename: string; data: Buffer; type?: string; name?: string }[],
  lang = 'en',
): Promise<{ status: number; info: string; data: T }> {
  const body = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    ...files.map((f) => ({ name: f.name ?? 'file', filename: f.filename, data: f.data, type: f.type })),
  ]);
  const res = await t.raw('POST', UPLOAD, {
    token,
    payload: body.payload,
    headers: { ...body.headers, language: lang },
  });
  return res.json();
}

/** Every regular file under a folder, relative to it (sorted). */
export function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}
