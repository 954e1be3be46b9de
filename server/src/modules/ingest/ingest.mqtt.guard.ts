import type net from 'node:net';

/**
 * Limits of the embedded broker's connections that aedes itself does not offer (it has no packet size
 * limit, moscajs/aedes#831, and its parser buffers a packet of any declared length, up to 256 MB, until it
 * is complete): a packet may be at most `maxPacketBytes` long (fixed header included), the first packet
 * must be a CONNECT, and one address may hold at most `maxPerIp` connections.
 */
export interface BrokerLimits {
  maxPacketBytes: number;
  maxPerIp: number;
}

export type FrameViolation = 'tooLarge' | 'notConnect' | 'malformed';

/**
 * Follows the MQTT framing of a byte stream without keeping any of it: the fixed header's type and remaining
 * length tell where each packet ends. A packet whose declared length is over the limit is refused as soon as
 * its length field is read, before any of its body is buffered.
 */
export class MqttFrameGuard {
  private state: 0 | 1 | 2 = 0; // 0: fixed header byte, 1: remaining length, 2: body
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;
  /** Packets whose header was read (the first must be a CONNECT). */
  packets = 0;

  constructor(private readonly maxPacketBytes: number) {}

  /** Follows one chunk; answers the violation, or null when the chunk is fine. */
  feed(buf: Uint8Array): FrameViolation | null {
    const n = buf.length;
    let i = 0;
    while (i < n) {
      if (this.state === 2) {
        const take = Math.min(this.remaining, n - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 0;
      } else if (this.state === 0) {
        // CONNECT is type 1 (0x10); aedes refuses any other first packet too, but only after parsing it whole.
        if (this.packets === 0 && buf[i]! >> 4 !== 1) return 'notConnect';
        this.packets++;
        i++;
        this.state = 1;
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
      } else {
        const b = buf[i++]!;
        this.length += (b & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes++;
        // The length's low digits come first: with a continuation bit it is at least the next digit's weight.
        const atLeast = this.length + (b & 0x80 ? this.multiplier : 0);
        if (1 + this.lengthBytes + atLeast > this.maxPacketBytes) return 'tooLarge';
        if (b & 0x80) {
          if (this.lengthBytes === 4) return 'malformed';
        } else {
          this.remaining = this.length;
          this.state = this.length === 0 ? 0 : 2;
        }
      }
    }
    return null;
  }
}

/**
 * Counts connections per address; `admit` answers false over the limit (the caller destroys the socket),
 * otherwise the count is released when the socket closes.
 */
export class ConnectionsPerIp {
  private open = new Map<string, number>();
  constructor(private readonly max: number) {}

  admit(socket: net.Socket): boolean {
    const ip = socket.remoteAddress ?? '?';
    const n = this.open.get(ip) ?? 0;
    if (n >= this.max) return false;
    this.open.set(ip, n + 1);
    socket.once('close', () => {
      const left = (this.open.get(ip) ?? 1) - 1;
      if (left <= 0) this.open.delete(ip);
      else this.open.set(ip, left);
    });
    return true;
  }

  count(ip: string): number {
    return this.open.get(ip) ?? 0;
  }
}

/**
 * Puts the frame guard in front of aedes on one connection. aedes takes a connection's bytes only through
 * `conn.read()` (paused mode, on 'readable'), so the guard sees exactly what the parser would get, without a
 * copy or an extra stream; a chunk that breaks a limit is never handed on and the socket is destroyed.
 */
export function guardSocket(
  socket: net.Socket,
  maxPacketBytes: number,
  onViolation: (v: FrameViolation) => void,
): void {
  const guard = new MqttFrameGuard(maxPacketBytes);
  const read = socket.read.bind(socket);
  socket.read = (size?: number): unknown => {
    const chunk: unknown = read(size);
    if (chunk === null || chunk === undefined || !(chunk instanceof Uint8Array)) return chunk;
    const v = guard.feed(chunk);
    if (v === null) return chunk;
    onViolation(v);
    socket.destroy();
    return null;
  };
}
