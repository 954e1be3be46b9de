import zlib from 'node:zlib';

/**
 * Reading a zip (xlsx, docx) without trusting it: the central directory's entries, a bomb check on their
 * declared sizes, and an entry's bytes inflated under a cap. Used by the upload checks and the spreadsheet import.
 */
const ZIP_LOCAL = Buffer.from('PK\x03\x04', 'latin1');
const ZIP_CENTRAL = Buffer.from('PK\x01\x02', 'latin1');
const ZIP_END = Buffer.from('PK\x05\x06', 'latin1');
const at = (b: Buffer, sig: Buffer, i: number): boolean =>
  i >= 0 && b.length >= i + sig.length && b.subarray(i, i + sig.length).equals(sig);

/** An entry of a zip's central directory. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; others are not read. */
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** Archive limits: what the declared sizes may claim before the archive counts as a bomb. */
export const ZIP_LIMITS = {
  /** All entries together, uncompressed. */
  maxTotalBytes: 100 * 1024 * 1024,
  /** Uncompressed over compressed, per entry (checked for entries over minRatioBytes). */
  maxRatio: 100,
  minRatioBytes: 1024 * 1024,
  maxEntries: 10_000,
};

/** The entries of a zip's central directory, or null when the zip is not well formed or has bytes after its end. */
export function zipEntries(b: Buffer): ZipEntry[] | null {
  const tail = Math.max(0, b.length - (22 + 65535));
  const eocd = b.lastIndexOf(ZIP_END);
  if (eocd < tail || eocd + 22 > b.length) return null;
  const commentLength = b.readUInt16LE(eocd + 20);
  if (eocd + 22 + commentLength !== b.length) return null; // something appended after the zip
  const count = b.readUInt16LE(eocd + 10);
  const cdSize = b.readUInt32LE(eocd + 12);
  const cdOffset = b.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff || cdOffset + cdSize > eocd) return null; // zip64: not for Word
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || !at(b, ZIP_CENTRAL, p)) return null;
    const nameLength = b.readUInt16LE(p + 28);
    const extraLength = b.readUInt16LE(p + 30);
    const commentLen = b.readUInt16LE(p + 32);
    entries.push({
      name: b.toString('utf8', p + 46, p + 46 + nameLength),
      method: b.readUInt16LE(p + 10),
      compressedSize: b.readUInt32LE(p + 20),
      size: b.readUInt32LE(p + 24),
      localOffset: b.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLen;
  }
  return p <= eocd ? entries : null;
}

/** The entry names of a zip's central directory, or null when the zip is not well formed. */
export function zipEntryNames(b: Buffer): string[] | null {
  return zipEntries(b)?.map((e) => e.name) ?? null;
}

/**
 * Is the archive a bomb by what it declares: too many entries, too much uncompressed in all, or an entry
 * compressed beyond the ratio? (What is actually inflated is capped again where it is read.)
 */
export function zipBomb(entries: readonly ZipEntry[]): boolean {
  if (entries.length > ZIP_LIMITS.maxEntries) return true;
  let total = 0;
  for (const e of entries) {
    total += e.size;
    if (e.size > ZIP_LIMITS.minRatioBytes && e.size > ZIP_LIMITS.maxRatio * Math.max(1, e.compressedSize)) return true;
  }
  return total > ZIP_LIMITS.maxTotalBytes;
}

/** An entry's bytes, inflated up to `max` bytes; null when it cannot be read or is larger. */
export function zipRead(b: Buffer, e: ZipEntry, max: number): Buffer | null {
  const start0 = e.localOffset;
  if (start0 + 30 > b.length || !at(b, ZIP_LOCAL, start0)) return null;
  const start = start0 + 30 + b.readUInt16LE(start0 + 26) + b.readUInt16LE(start0 + 28);
  const data = b.subarray(start, start + e.compressedSize);
  if (data.length !== e.compressedSize || e.size > max) return null;
  try {
    if (e.method === 0) return data;
    if (e.method === 8) return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, max) });
  } catch {
    return null;
  }
  return null;
}

/**
 * Is this a zip that may be opened: well formed, not a bomb by its declared sizes, and every entry inflates to
 * exactly its declared size within the total budget (a lying size is caught before a library inflates it).
 */
export function zipSafe(b: Buffer): boolean {
  const entries = zipEntries(b);
  if (entries === null || zipBomb(entries)) return false;
  let budget = ZIP_LIMITS.maxTotalBytes;
  for (const e of entries) {
    if (e.name.endsWith('/') && e.size === 0) continue;
    const data = zipRead(b, e, budget);
    if (data === null || data.length !== e.size) return false;
    budget -= data.length;
  }
  return true;
}
