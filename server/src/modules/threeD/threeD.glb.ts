import type { Language } from '@geosentry/contract';

/**
 * Checks that bytes are a self-contained glTF 2.0 binary (GLB): the 'glTF' magic, version 2, the declared length
 * equal to the file's, a first chunk of JSON that parses to a glTF document (asset.version 2.x), chunks inside
 * the file, and no reference to an outside file (the viewer loads this one file only). Answers the triangle count
 * of its meshes, or the reason it is refused.
 */
export type GlbCheck = { ok: true; triangles: number } | { ok: false; reason: GlbReason };

const REASONS = {
  tooShort: { en: 'the file is too short', zh: '文件太短', ko: '파일이 너무 짧습니다' },
  magic: {
    en: "it does not start with the bytes 'glTF'",
    zh: "文件不是以 'glTF' 字节开头",
    ko: "파일이 'glTF' 바이트로 시작하지 않습니다",
  },
  version: { en: 'only glTF version 2 is supported', zh: '仅支持 glTF 2.0', ko: 'glTF 버전 2만 지원합니다' },
  length: {
    en: 'the length in its header does not match the file (truncated?)',
    zh: '文件头中的长度与文件不符（文件不完整？）',
    ko: '헤더의 길이가 파일과 맞지 않습니다 (잘린 파일?)',
  },
  noJson: { en: 'its first chunk is not JSON', zh: '第一个数据块不是 JSON', ko: '첫 번째 청크가 JSON이 아닙니다' },
  badJson: {
    en: 'its JSON chunk does not parse',
    zh: 'JSON 数据块无法解析',
    ko: 'JSON 청크를 해석할 수 없습니다',
  },
  badChunk: { en: 'a chunk runs past the end of the file', zh: '数据块超出文件末尾', ko: '청크가 파일 끝을 넘습니다' },
  external: {
    en: 'it refers to outside files; export a self-contained .glb',
    zh: '模型引用了外部文件，请导出独立的 .glb 文件',
    ko: '외부 파일을 참조합니다. 독립된 .glb로 내보내세요',
  },
} as const satisfies Record<string, Record<Language, string>>;
export type GlbReason = keyof typeof REASONS;
export const glbReason = (r: GlbReason, lang: Language): string => REASONS[r][lang];

const MAGIC = 0x46546c67; // 'glTF' little-endian
const JSON_CHUNK = 0x4e4f534a;

interface GltfDoc {
  asset?: { version?: unknown };
  buffers?: { uri?: unknown; byteLength?: unknown }[];
  images?: { uri?: unknown }[];
  accessors?: { count?: unknown }[];
  meshes?: { primitives?: { mode?: unknown; indices?: unknown; attributes?: Record<string, unknown> }[] }[];
}

const isDataUri = (u: unknown): boolean => typeof u === 'string' && u.startsWith('data:');

export function checkGlb(buf: Buffer): GlbCheck {
  const fail = (reason: GlbReason): GlbCheck => ({ ok: false, reason });
  if (buf.length < 20) return fail('tooShort');
  if (buf.readUInt32LE(0) !== MAGIC) return fail('magic');
  if (buf.readUInt32LE(4) !== 2) return fail('version');
  if (buf.readUInt32LE(8) !== buf.length) return fail('length');
  const jsonLen = buf.readUInt32LE(12);
  if (buf.readUInt32LE(16) !== JSON_CHUNK) return fail('noJson');
  if (20 + jsonLen > buf.length) return fail('badChunk');
  let doc: GltfDoc;
  try {
    const parsed = JSON.parse(buf.subarray(20, 20 + jsonLen).toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('badJson');
    doc = parsed as GltfDoc;
  } catch {
    return fail('badJson');
  }
  const version = doc.asset?.version;
  if (typeof version !== 'string' || !version.startsWith('2')) return fail('version');
  // Later chunks (the binary buffer) must lie inside the file.
  let at = 20 + jsonLen + ((4 - (jsonLen % 4)) % 4);
  while (at < buf.length) {
    if (at + 8 > buf.length) return fail('badChunk');
    const len = buf.readUInt32LE(at);
    if (at + 8 + len > buf.length) return fail('badChunk');
    at += 8 + len + ((4 - (len % 4)) % 4);
  }
  for (const b of doc.buffers ?? []) if (b?.uri !== undefined && !isDataUri(b.uri)) return fail('external');
  for (const i of doc.images ?? []) if (i?.uri !== undefined && !isDataUri(i.uri)) return fail('external');
  return { ok: true, triangles: trianglesOf(doc) };
}

/** Triangles of the meshes' triangle primitives (mode 4, the default; strips and fans count n - 2). */
function trianglesOf(doc: GltfDoc): number {
  const count = (i: unknown): number => {
    const c = typeof i === 'number' ? doc.accessors?.[i]?.count : undefined;
    return typeof c === 'number' && Number.isFinite(c) && c > 0 ? c : 0;
  };
  let n = 0;
  for (const m of doc.meshes ?? [])
    for (const p of m?.primitives ?? []) {
      const mode = p?.mode ?? 4;
      const v = p?.indices !== undefined ? count(p.indices) : count(p?.attributes?.POSITION);
      if (mode === 4) n += Math.floor(v / 3);
      else if (mode === 5 || mode === 6) n += Math.max(0, v - 2);
    }
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}
