import type { CameraVendor } from '@geosentry/contract';

/** What the RTSP address of a camera is built from. */
export interface RtspSource {
  vendor: CameraVendor;
  ip: string;
  channel: number;
  rtspUrl: string | null;
  vmUser: string | null;
}

const host = (ip: string): string => (ip.includes(':') ? `[${ip}]` : ip);

/**
 * The camera's main stream address, with its credentials when it has them. Hikvision, Dahua and Uniview
 * recorders and cameras follow their vendors' fixed paths on port 554; ONVIF and other cameras give theirs.
 */
export function rtspAddress(c: RtspSource, password: string | null): string {
  const base =
    c.rtspUrl ??
    {
      hikvision: `rtsp://${host(c.ip)}:554/Streaming/Channels/${c.channel}01`,
      dahua: `rtsp://${host(c.ip)}:554/cam/realmonitor?channel=${c.channel}&subtype=0`,
      uniview: `rtsp://${host(c.ip)}:554/unicast/c${c.channel}/s0/live`,
      onvif: '',
      other: '',
    }[c.vendor];
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
