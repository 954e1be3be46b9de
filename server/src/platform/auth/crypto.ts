import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server secret encrypts login keys at rest. It comes from SECRET_KEY (needed when several
 * server nodes share one database), or is generated once into DATA_DIR/secret.key (mode 0600).
 */
export function loadSecret(secretKey: string | null, dataDir: string): Buffer {
  if (secretKey) return crypto.createHash('sha256').update(secretKey).digest();
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(existing)) return Buffer.from(existing, 'hex');
  } catch {
    /* not yet made */
  }
  const fresh = crypto.randomBytes(32);
  fs.writeFileSync(file, fresh.toString('hex'), { mode: 0o600, flag: 'wx' });
  return fresh;
}

/** AES-256-GCM; output "v1.<iv>.<tag>.<ciphertext>" in base64url. */
export function encrypt(secret: Buffer, plain: string): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', secret, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function decrypt(secret: Buffer, blob: string): string {
  const [v, iv, tag, ct] = blob.split('.');
  if (v !== 'v1' || !iv || !tag || !ct) throw new Error('unknown key format');
  const d = crypto.createDecipheriv('aes-256-gcm', secret, Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}

export const sha256hex = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');

/** An opaque random token: 256 bits, base64url. Only its SHA-256 is stored. */
export const newToken = (): string => crypto.randomBytes(32).toString('base64url');

export function hmacHex(key: string, msg: string): string {
  return crypto.createHmac('sha256', key).update(msg).digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
