import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkPassword, hmacSha256, md5, passwordKey, sha1, sha256, signLogin, signWithKey } from '../index.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const node = (alg: string, s: string | Buffer): string => crypto.createHash(alg).update(s).digest('hex');

describe('login signature (architecture §4)', () => {
  it('md5, sha1, sha256 and HMAC match node:crypto for assorted inputs', () => {
    const inputs = [
      '',
      'a',
      'abc',
      'The quick brown fox',
      '密码 🌧 비밀번호',
      'x'.repeat(55),
      'y'.repeat(56),
      'z'.repeat(64),
      'w'.repeat(1000),
    ];
    for (let i = 0; i < 30; i++) inputs.push(crypto.randomBytes(i * 7).toString('latin1'));
    for (const s of inputs) {
      const b = new TextEncoder().encode(s);
      expect(hex(md5(b))).toBe(node('md5', Buffer.from(b)));
      expect(hex(sha1(b))).toBe(node('sha1', Buffer.from(b)));
      expect(hex(sha256(b))).toBe(node('sha256', Buffer.from(b)));
      const key = crypto.randomBytes(i(s) % 100);
      expect(hex(hmacSha256(key, b))).toBe(crypto.createHmac('sha256', key).update(b).digest('hex'));
    }
    function i(s: string): number {
      return s.length;
    }
  });

  it('key = md5hex(sha1hex(password)); signature = hex(HMAC-SHA256(key, time))', () => {
    const pw = 'Geo-sentry 2026';
    const key = node('md5', node('sha1', pw));
    expect(passwordKey(pw)).toBe(key);
    expect(signWithKey(key, '1795300977057')).toBe(
      crypto.createHmac('sha256', key).update('1795300977057').digest('hex'),
    );
    const s = signLogin(pw, '1700000000000');
    expect(s).toEqual({
      signature: crypto.createHmac('sha256', key).update('1700000000000').digest('hex'),
      time: '1700000000000',
    });
  });
});

describe('password rules', () => {
  it('needs 8 characters, allows long passphrases and any characters, refuses common ones', () => {
    expect(checkPassword('short')).toBe('tooShort');
    expect(checkPassword('1234567')).toBe('tooShort');
    expect(checkPassword('password')).toBe('common');
    expect(checkPassword('Password1')).toBe('common');
    expect(checkPassword('aaaaaaaaaa')).toBe('common');
    expect(checkPassword('fieldwork', 'FieldWork')).toBe('sameAsAccount');
    expect(checkPassword('correct horse battery staple')).toBeNull();
    expect(checkPassword('山体滑坡监测预警系统')).toBeNull();
    expect(checkPassword('x'.repeat(257))).toBe('tooLong');
  });
});
