import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** JSON answers smaller than this go as they are (the headers of compression would outweigh the saving). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * The encoding to use for an Accept-Encoding header: br before gzip, none when the client names neither (or
 * refuses both with q=0). `*` accepts both.
 */
export function pickEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  if (!accept) return null;
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const of = (name: string): number => q.get(name) ?? q.get('*') ?? 0;
  if (of('br') > 0) return 'br';
  if (of('gzip') > 0) return 'gzip';
  return null;
}

/**
 * Compresses JSON answers of at least COMPRESS_THRESHOLD bytes (br or gzip, by the request's Accept-Encoding).
 * Only a JSON text or buffer payload is touched: streamed files, downloads (xlsx is already a zip) and any answer
 * that already carries a Content-Encoding go as they are, and a client that asks for no encoding (devices, the
 * ingest route's loggers) gets the plain answer.
 */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const raw = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (raw.length < COMPRESS_THRESHOLD) return payload;
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/\baccept-encoding\b/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    const body =
      encoding === 'br'
        ? await brotli(raw, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
          })
        : await gz(raw, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
