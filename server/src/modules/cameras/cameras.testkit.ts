import crypto from 'node:crypto';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Test fixtures of the cameras feature (its tests, the browser test and the video bench): a small RTSP server
 * (ffmpeg 5.1 cannot listen as one) and an ffmpeg publishing a synthetic H.264 stream to it.
 *
 * The server speaks RTSP 1.0 over TCP with interleaved RTP only: a publisher ANNOUNCEs its SDP, SETUPs its
 * tracks and RECORDs; players DESCRIBE, SETUP (interleaved) and PLAY; every RTP/RTCP packet of the publisher is
 * copied to the players of its path. Enough for ffmpeg on both sides.
 */

interface Conn {
  socket: net.Socket;
  buf: Buffer;
  path: string | null;
  role: 'none' | 'publisher' | 'player';
  /** publisher: its channel -> track; player: track -> its RTP channel. */
  channels: Map<number, number>;
  session: string;
}

/** Credentials a test camera asks its players for, as real cameras do (Digest for most, Basic for some). */
export interface RtspAuth {
  user: string;
  password: string;
  scheme: 'basic' | 'digest';
}

const md5 = (s: string): string => crypto.createHash('md5').update(s).digest('hex');

/** The parameters of a Digest Authorization header (`key="value"` or `key=value`, comma separated). */
function digestParams(header: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of header.replace(/^Digest\s+/i, '').matchAll(/(\w+)\s*=\s*(?:"([^"]*)"|([^,\s]*))/g))
    out.set((m[1] ?? '').toLowerCase(), m[2] ?? m[3] ?? '');
  return out;
}

const trackOf = (url: string): number => Number(/(?:streamid|trackID|track)=(\d+)/i.exec(url)?.[1] ?? 0);
const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname.replace(/\/(?:streamid|trackID|track)=\d+$/i, '').replace(/\/$/, '');
  } catch {
    return '/';
  }
};

export class TestRtspServer {
  private readonly server = net.createServer((s) => this.accept(s));
  private readonly conns = new Set<Conn>();
  private readonly sdp = new Map<string, string>();
  private sessions = 0;
  /** Paths served from another path's publisher (many "cameras" from one encoded stream: the video bench). */
  private readonly aliases = new Map<string, string>();
  port = 0;
  /** Requests received, as "METHOD path" (tests look at them). */
  readonly requests: string[] = [];
  /** Requests of players that carried the right credentials, and those refused for lack of them. */
  readonly auth = { accepted: 0, refused: 0 };
  private readonly nonce = crypto.randomBytes(16).toString('hex');
  private readonly realm = 'TestCamera';

  /** With `auth`, players must authenticate (publishers need not): DESCRIBE, SETUP and PLAY answer 401 otherwise. */
  constructor(private readonly credentials: RtspAuth | null = null) {}

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Serves `path` from the publisher of `source`. */
  alias(path: string, source = '/live'): void {
    this.aliases.set(path, source);
  }

  url(path = '/live'): string {
    return `rtsp://127.0.0.1:${this.port}${path}`;
  }

  /** Open connections of players (tests check none is left over). */
  players(): number {
    return [...this.conns].filter((c) => c.role === 'player').length;
  }

  /** Open connections of any kind. */
  connections(): number {
    return this.conns.size;
  }

  /** Whether a publisher is live on the path. */
  live(path = '/live'): boolean {
    return this.sdp.has(path);
  }

  /** Drops every connection (the camera goes away). */
  dropAll(): void {
    for (const c of this.conns) c.socket.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    const c: Conn = { socket, buf: Buffer.alloc(0), path: null, role: 'none', channels: new Map(), session: '' };
    this.conns.add(c);
    socket.on('data', (d: Buffer) => {
      c.buf = c.buf.length ? Buffer.concat([c.buf, d]) : d;
      this.parse(c);
    });
    const gone = () => {
      if (!this.conns.delete(c)) return;
      if (c.role === 'publisher' && c.path) {
        this.sdp.delete(c.path);
        // The camera went away: its players lose their stream.
        for (const p of this.conns) if (p.role === 'player' && p.path === c.path) p.socket.destroy();
      }
    };
    socket.on('close', gone);
    socket.on('error', () => socket.destroy());
  }

  private parse(c: Conn): void {
    for (;;) {
      if (c.buf.length === 0) return;
      if (c.buf[0] === 0x24) {
        if (c.buf.length < 4) return;
        const len = c.buf.readUInt16BE(2);
        if (c.buf.length < 4 + len) return;
        const channel = c.buf[1] ?? 0;
        const payload = c.buf.subarray(4, 4 + len);
        c.buf = c.buf.subarray(4 + len);
        if (c.role === 'publisher') this.forward(c, channel, payload);
        continue;
      }
      const end = c.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = c.buf.subarray(0, end).toString('latin1');
      const lines = head.split('\r\n');
      const headers = new Map<string, string>();
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        if (i > 0) headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
      }
      const bodyLen = Number(headers.get('content-length') ?? 0);
      if (c.buf.length < end + 4 + bodyLen) return;
      const body = c.buf.subarray(end + 4, end + 4 + bodyLen).toString('latin1');
      c.buf = c.buf.subarray(end + 4 + bodyLen);
      const [method = '', url = ''] = (lines[0] ?? '').split(' ');
      this.handle(c, method, url, headers, body);
    }
  }

  private reply(c: Conn, cseq: string, code: string, headers: Record<string, string> = {}, body = ''): void {
    let out = `RTSP/1.0 ${code}\r\nCSeq: ${cseq}\r\n`;
    for (const [k, v] of Object.entries(headers)) out += `${k}: ${v}\r\n`;
    if (body) out += `Content-Length: ${Buffer.byteLength(body)}\r\n`;
    out += `\r\n${body}`;
    if (!c.socket.destroyed) c.socket.write(out);
  }

  private handle(c: Conn, method: string, url: string, h: Map<string, string>, body: string): void {
    const cseq = h.get('cseq') ?? '0';
    const asked = pathOf(url);
    const p = method === 'ANNOUNCE' ? asked : (this.aliases.get(asked) ?? asked);
    this.requests.push(`${method} ${asked}`);
    if (this.credentials && ['DESCRIBE', 'SETUP', 'PLAY'].includes(method) && c.role !== 'publisher') {
      if (!this.authorized(method, h.get('authorization') ?? '')) {
        this.auth.refused++;
        return this.reply(c, cseq, '401 Unauthorized', {
          'WWW-Authenticate':
            this.credentials.scheme === 'basic'
              ? `Basic realm="${this.realm}"`
              : `Digest realm="${this.realm}", nonce="${this.nonce}"`,
        });
      }
      this.auth.accepted++;
    }
    const session = () => {
      if (!c.session) c.session = String(++this.sessions).padStart(8, '0');
      return c.session;
    };
    switch (method) {
      case 'OPTIONS':
        return this.reply(c, cseq, '200 OK', {
          Public: 'OPTIONS, DESCRIBE, ANNOUNCE, SETUP, PLAY, RECORD, TEARDOWN, GET_PARAMETER',
        });
      case 'ANNOUNCE':
        c.role = 'publisher';
        c.path = p;
        this.sdp.set(p, body);
        return this.reply(c, cseq, '200 OK');
      case 'DESCRIBE': {
        const sdp = this.sdp.get(p);
        if (!sdp) return this.reply(c, cseq, '404 Not Found');
        c.path = p;
        return this.reply(
          c,
          cseq,
          '200 OK',
          { 'Content-Base': `${url.replace(/\/$/, '')}/`, 'Content-Type': 'application/sdp' },
          sdp,
        );
      }
      case 'SETUP': {
        const transport = h.get('transport') ?? '';
        const m = /interleaved=(\d+)-(\d+)/.exec(transport);
        if (!/TCP/i.test(transport) || !m) return this.reply(c, cseq, '461 Unsupported Transport');
        const rtp = Number(m[1]);
        const track = trackOf(url);
        c.path ??= p;
        if (/mode="?record/i.test(transport)) {
          c.role = 'publisher';
          c.channels.set(rtp, track);
          c.channels.set(rtp + 1, track + 1000);
        } else c.channels.set(track, rtp);
        return this.reply(c, cseq, '200 OK', {
          Transport: `RTP/AVP/TCP;unicast;interleaved=${m[1]}-${m[2]}`,
          Session: `${session()};timeout=60`,
        });
      }
      case 'RECORD':
        c.role = 'publisher';
        return this.reply(c, cseq, '200 OK', { Session: session() });
      case 'PLAY':
        if (!c.path || !this.sdp.has(c.path)) return this.reply(c, cseq, '454 Session Not Found');
        c.role = 'player';
        return this.reply(c, cseq, '200 OK', { Session: session(), Range: 'npt=0.000-' });
      case 'GET_PARAMETER':
      case 'SET_PARAMETER':
        return this.reply(c, cseq, '200 OK', { Session: session() });
      case 'TEARDOWN':
        this.reply(c, cseq, '200 OK');
        c.socket.end();
        return;
      default:
        return this.reply(c, cseq, '501 Not Implemented');
    }
  }

  /** Whether an Authorization header carries the credentials (Basic, or Digest with or without qop=auth). */
  private authorized(method: string, header: string): boolean {
    const want = this.credentials;
    if (!want) return true;
    if (want.scheme === 'basic') {
      const m = /^Basic\s+(\S+)$/i.exec(header);
      return !!m && Buffer.from(m[1] ?? '', 'base64').toString('utf8') === `${want.user}:${want.password}`;
    }
    if (!/^Digest\s/i.test(header)) return false;
    const p = digestParams(header);
    if (p.get('username') !== want.user || p.get('nonce') !== this.nonce || p.get('realm') !== this.realm) return false;
    const ha1 = md5(`${want.user}:${this.realm}:${want.password}`);
    const ha2 = md5(`${method}:${p.get('uri') ?? ''}`);
    const qop = p.get('qop');
    const expected = qop
      ? md5(`${ha1}:${this.nonce}:${p.get('nc') ?? ''}:${p.get('cnonce') ?? ''}:${qop}:${ha2}`)
      : md5(`${ha1}:${this.nonce}:${ha2}`);
    return p.get('response') === expected;
  }

  private forward(pub: Conn, channel: number, payload: Buffer): void {
    const t = pub.channels.get(channel);
    if (t === undefined) return;
    const rtcp = t >= 1000;
    const track = rtcp ? t - 1000 : t;
    for (const c of this.conns) {
      if (c.role !== 'player' || c.path !== pub.path) continue;
      const ch = c.channels.get(track);
      if (ch === undefined) continue;
      const head = Buffer.from([0x24, rtcp ? ch + 1 : ch, payload.length >> 8, payload.length & 0xff]);
      // A player that cannot keep up loses packets rather than holding the publisher back.
      if (c.socket.writableLength < 4 * 1024 * 1024) c.socket.write(Buffer.concat([head, payload]));
    }
  }
}

/**
 * ffmpeg publishing a synthetic H.264 stream (test pattern with the wall clock burned in, one key frame a
 * second) to an RTSP server. `size` e.g. 640x360 or 1280x720.
 */
export function publishTestStream(
  url: string,
  opts: { size?: string; rate?: number; ffmpeg?: string; clockBits?: boolean; scaleTo?: string } = {},
): ChildProcess {
  const rate = opts.rate ?? 25;
  const drawn = opts.clockBits
    ? clockBitsFilter(rate)
    : "drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf:text='%{localtime\\:%H\\\\\\:%M\\\\\\:%S}':x=20:y=20:fontsize=48:fontcolor=white:box=1:boxcolor=black";
  // scaleTo: the picture drawn at `size`, sent smaller (a camera's sub stream; the clock band scales with it).
  const text = opts.scaleTo ? `${drawn},scale=${opts.scaleTo.replace('x', ':')}` : drawn;
  const p = spawn(
    opts.ffmpeg ?? 'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${opts.size ?? '640x360'}:rate=${rate}`,
      '-vf',
      text,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-g',
      String(rate),
      '-pix_fmt',
      'yuv420p',
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  p.stderr?.resume();
  return p;
}

/** Resolves when the server has a live publisher on the path (or rejects after ms). */
export async function waitLive(server: TestRtspServer, path = '/live', ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!server.live(path)) {
    if (Date.now() > end) throw new Error('the test stream did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Ends a child process and waits for it. */
export async function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    p.once('close', () => resolve());
    p.kill('SIGTERM');
    setTimeout(() => p.kill('SIGKILL'), 3000).unref();
  });
}

/** Bits of the wall clock burned into each frame (the video bench reads them back in the browser). */
export const CLOCK_BITS = 20;
/** Where bit k is drawn: a white 32x32 square at (8 + 40k, 8) when set, on a black band. */
export const clockBitAt = (k: number): { x: number; y: number } => ({ x: 8 + 40 * k + 16, y: 8 + 16 });

/**
 * A filter drawing the capture time (centiseconds of the Unix epoch, modulo 2^20: about 2.9 hours) as 20 squares:
 * frames get the wall clock as their time (RTCTIME) to draw it, then their normal times back for the encoder.
 */
export function clockBitsFilter(rate: number): string {
  const boxes = Array.from(
    { length: CLOCK_BITS },
    (_, k) =>
      `drawbox=x=${8 + 40 * k}:y=8:w=32:h=32:color=white:t=fill:enable='eq(mod(floor(t*100/pow(2\\,${k}))\\,2)\\,1)'`,
  );
  return [
    'settb=AVTB',
    'setpts=RTCTIME/(TB*1000000)',
    'drawbox=x=0:y=0:w=816:h=48:color=black:t=fill',
    ...boxes,
    `setpts=N/(${rate}*TB)`,
  ].join(',');
}

/** Decodes the centiseconds of the clock bits and answers the latency to `nowMs` (handles the 2^20 wrap). */
export function clockLatencyMs(bits: number, nowMs: number): number {
  const span = 2 ** CLOCK_BITS;
  const now = Math.floor(nowMs / 10) % span;
  return ((((now - bits) % span) + span) % span) * 10;
}
