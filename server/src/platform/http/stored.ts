import type { FastifyReply } from 'fastify';

/** A stored file as answered: its bytes (a stream or a buffer), its media type, and its size when known. */
export interface StoredAnswer {
  body: NodeJS.ReadableStream | Buffer;
  type: string;
  size?: number | undefined;
}

/**
 * Answers a stored file (an upload, a model, a tile, a picture) the one way: its media type and size, nosniff,
 * private caching for `maxAgeSeconds`, and a sandboxing content security policy as defence in depth for a file
 * opened directly (nothing in it runs, nothing loads). `disposition` names a download. Waits until the bytes are
 * sent: defineRoute then sees reply.sent and adds no envelope.
 */
export async function sendStored(
  reply: FastifyReply,
  f: StoredAnswer,
  maxAgeSeconds: number,
  disposition?: string,
): Promise<void> {
  reply.header('content-type', f.type);
  const size = f.size ?? (Buffer.isBuffer(f.body) ? f.body.length : undefined);
  if (size !== undefined) reply.header('content-length', String(size));
  reply.header('x-content-type-options', 'nosniff');
  if (disposition) reply.header('content-disposition', disposition);
  reply.header('cache-control', `private, max-age=${maxAgeSeconds}`);
  reply.header('content-security-policy', "default-src 'none'; sandbox");
  await reply.send(f.body);
}
