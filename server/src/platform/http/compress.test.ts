import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, testApp, type TestApp } from '../../../test/harness.ts';
import { pickEncoding } from './compress.ts';

/** A built console in miniature: index.html and one hashed asset, each with its .br and .gz siblings. */
function fakeDist(): { dir: string; js: string } {
  const dir = tempDir('gs-web-');
  const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  const html = `<!doctype html><html><body><div id="root"></div>${'<!-- pad -->'.repeat(200)}</body></html>`;
  fs.mkdirSync(path.join(dir, 'assets'));
  for (const [file, text] of [
    ['index.html', html],
    ['assets/index-abc123.js', js],
  ] as const) {
    fs.writeFileSync(path.join(dir, file), text);
    fs.writeFileSync(path.join(dir, `${file}.br`), brotliCompressSync(text));
    fs.writeFileSync(path.join(dir, `${file}.gz`), gzipSync(text));
  }
  return { dir, js };
}

describe('compression of answers and console files', () => {
  let t: TestApp;
  let js: string;
  beforeAll(async () => {
    const dist = fakeDist();
    js = dist.js;
    t = await testApp({ webDist: dist.dir });
  });
  afterAll(() => t.close());

  it('picks br before gzip and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip;q=1, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding(undefined)).toBeNull();
  });

  it('compresses a JSON answer over 1 KB by Accept-Encoding, and says it varies on it', async () => {
    const plain = await t.raw('GET', '/api/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await t.raw('GET', '/api/docs/json', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gz = await t.raw('GET', '/api/docs/json', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves a small JSON answer as it is', async () => {
    const r = await t.raw('GET', '/api/health', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.json().info).toBe('ok');
  });

  it('sends the build-time .br / .gz of a hashed asset, cached as immutable', async () => {
    const br = await t.raw('GET', '/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers['content-type'])).toMatch(/javascript/);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);

    const gz = await t.raw('GET', '/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);

    const plain = await t.raw('GET', '/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });

  it('revalidates index.html every time (it names the hashed assets)', async () => {
    const r = await t.raw('GET', '/', { headers: { 'accept-encoding': 'br' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(r.rawPayload).toString()).toMatch(/<div id="root">/);
  });
});
