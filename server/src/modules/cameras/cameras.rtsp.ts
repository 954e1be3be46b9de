import type { CameraVendor, LiveQuality } from '@geosentry/contract';

/** What the RTSP address of a camera is built from. */
export interface RtspSource {
  vendor: CameraVendor;
  ip: string;
  channel: number;
  rtspUrl: string | null;
  /** The sub stream's own address (ONVIF and other cameras); null: the vendor's path, or none. */
  subRtspUrl?: string | null | undefined;
  vmUser: string | null;
}

const host = (ip: string): string => (ip.includes(':') ? `[${ip}]` : ip);

/** The vendors' fixed stream paths on port 554 (main, sub); ONVIF and other cameras give theirs. */
const VENDOR_PATHS: Record<CameraVendor, ((ip: string, ch: number) => [string, string]) | null> = {
  hikvision: (ip, ch) => [
    `rtsp://${host(ip)}:554/Streaming/Channels/${ch}01`,
    `rtsp://${host(ip)}:554/Streaming/Channels/${ch}02`,
  ],
  dahua: (ip, ch) => [
    `rtsp://${host(ip)}:554/cam/realmonitor?channel=${ch}&subtype=0`,
    `rtsp://${host(ip)}:554/cam/realmonitor?channel=${ch}&subtype=1`,
  ],
  uniview: (ip, ch) => [
    `rtsp://${host(ip)}:554/unicast/c${ch}/s0/live`,
    `rtsp://${host(ip)}:554/unicast/c${ch}/s1/live`,
  ],
  onvif: null,
  other: null,
};

/** Whether a vendor's cameras give a sub stream at a fixed path (without an address of their own). */
const hasVendorSubStream = (vendor: CameraVendor): boolean => VENDOR_PATHS[vendor] !== null;

/**
 * Which stream a viewer asking for `quality` gets: the sub stream where the camera gives one (its own address, or
 * its vendor's path when its main stream is also the vendor's), else the main stream.
 */
export function servedQuality(
  c: Pick<RtspSource, 'vendor' | 'rtspUrl' | 'subRtspUrl'>,
  quality: LiveQuality,
): LiveQuality {
  if (quality === 'main') return 'main';
  if (c.subRtspUrl) return 'sub';
  return c.rtspUrl === null && hasVendorSubStream(c.vendor) ? 'sub' : 'main';
}

/** Whether the camera gives a sub stream (its own address, or its vendor's path). */
export const givesSubStream = (c: Pick<RtspSource, 'vendor' | 'rtspUrl' | 'subRtspUrl'>): boolean =>
  servedQuality(c, 'sub') === 'sub';

/**
 * The address of the camera's main or sub stream (see servedQuality), with its credentials when it has them.
 * Hikvision, Dahua and Uniview recorders and cameras follow their vendors' fixed paths on port 554; ONVIF and other
 * cameras give theirs.
 */
export function rtspAddress(c: RtspSource, password: string | null, quality: LiveQuality = 'main'): string {
  const vendor = VENDOR_PATHS[c.vendor]?.(c.ip, c.channel) ?? null;
  const base = servedQuality(c, quality) === 'sub' ? (c.subRtspUrl ?? vendor?.[1]) : (c.rtspUrl ?? vendor?.[0] ?? null);
  if (!base) throw new Error('camera without an RTSP address');
  const u = new URL(base);
  if (c.vmUser) {
    u.username = encodeURIComponent(c.vmUser);
    u.password = encodeURIComponent(password ?? '');
  }
  return u.toString();
}

/** An address with its credentials removed (for anything that could be logged). */
export const withoutCredentials = (url: string): string => url.replace(/\/\/[^@/]*@/, '//');

/**
 * ffmpeg's input for a camera, keeping its credentials off the command line (any local user can read a process's
 * command line, /proc/<pid>/cmdline, `ps`): the address is the one entry of an ffconcat list that ffmpeg reads from
 * its standard input with the concat demuxer, and the RTSP options are the list's `option` directives (ffmpeg ≥ 5.0).
 * The caller spawns ffmpeg with `stdin` piped, puts `args` where `-i <url>` was, and writes `list` then ends stdin.
 * The stream itself is untouched (remux only); a camera that goes away ends the input as before.
 */
export function rtspInput(url: string): { args: string[]; list: string } {
  // A single-quoted ffconcat token holds anything but a quote: close, escape the quote, reopen.
  const quoted = `'${url.replace(/'/g, "'\\''").replace(/[\r\n]/g, '')}'`;
  const list = [
    'ffconcat version 1.0',
    `file ${quoted}`,
    'option rtsp_transport tcp',
    // Socket I/O timeout (µs): a camera that stops answering ends the input within 5 s.
    'option timeout 5000000',
    'option fflags nobuffer',
    // Probe at most 1 s: the concat demuxer probes its input once more, and H.264 cameras give their parameters
    // in the SDP or with the first key frame. Measured on the test stream: first HLS playlist 3.0 s instead of
    // 3.9 s (ffmpeg -i directly: 3.8 s), a snapshot 2.0 s instead of 2.9 s.
    'option analyzeduration 1000000',
    '',
  ].join('\n');
  return {
    args: ['-f', 'concat', '-safe', '0', '-protocol_whitelist', 'pipe,rtsp,rtsps,rtp,srtp,tcp,udp,tls', '-i', 'pipe:0'],
    list,
  };
}
