import { describe, expect, it } from 'vitest';
import { MqttFrameGuard } from './ingest.mqtt.guard.ts';

function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}
const packet = (type: number, bodyLength: number): Buffer =>
  Buffer.concat([Buffer.from([type << 4, ...varint(bodyLength)]), Buffer.alloc(bodyLength, 7)]);

describe('MQTT frame guard', () => {
  it('follows packets split anywhere, up to the limit and not beyond', () => {
    const limit = 1000;
    const stream = Buffer.concat([packet(1, 40), packet(3, 995), packet(12, 0), packet(3, 200), packet(3, 129)]);
    // Every split point of the stream into two chunks, and byte by byte.
    for (let cut = 0; cut <= stream.length; cut++) {
      const g = new MqttFrameGuard(limit);
      expect(g.feed(stream.subarray(0, cut))).toBeNull();
      expect(g.feed(stream.subarray(cut))).toBeNull();
      expect(g.packets).toBe(5);
    }
    const g = new MqttFrameGuard(limit);
    for (const b of stream) expect(g.feed(Buffer.from([b]))).toBeNull();
    // 1 + 2 length bytes + 998 = 1001 bytes: over.
    expect(g.feed(packet(3, 998).subarray(0, 3))).toBe('tooLarge');
  });

  it('refuses a declared length over the limit as soon as the length says so, before any body', () => {
    const g = new MqttFrameGuard(256 * 1024);
    expect(g.feed(Buffer.from([0x10]))).toBeNull();
    // 250 MB: the second length byte already shows more than 256 KiB.
    const len = varint(250 * 1024 * 1024);
    expect(g.feed(Buffer.from(len.slice(0, 3)))).toBe('tooLarge');
  });

  it('wants a CONNECT first and at most four length bytes', () => {
    expect(new MqttFrameGuard(1000).feed(Buffer.from([0x30, 0]))).toBe('notConnect');
    expect(new MqttFrameGuard(1e9).feed(Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff]))).toBe('malformed');
  });
});
