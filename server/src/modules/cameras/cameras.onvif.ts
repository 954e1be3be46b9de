import crypto from 'node:crypto';
import { PTZ_SPEED_VALUE, type PtzDirection, type PtzSpeed } from '@geosentry/contract';

/**
 * ONVIF PTZ by hand: SOAP 1.2 envelopes with a WS-Security UsernameToken (password digest:
 * Base64(SHA1(nonce + created + password))). The PTZ service is asked at the device service address
 * (most cameras answer PTZ calls there too); the first media profile is used.
 */

export interface OnvifTarget {
  url: string;
  user: string | null;
  password: string | null;
}

const esc = (s: string): string =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

function security(user: string, password: string): string {
  const nonce = crypto.randomBytes(16);
  const created = new Date().toISOString();
  const digest = crypto
    .createHash('sha1')
    .update(Buffer.concat([nonce, Buffer.from(created), Buffer.from(password)]))
    .digest('base64');
  return `<s:Header><Security s:mustUnderstand="1" xmlns="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><UsernameToken><Username>${esc(user)}</Username><Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">${digest}</Password><Nonce EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary">${nonce.toString('base64')}</Nonce><Created xmlns="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">${created}</Created></UsernameToken></Security></s:Header>`;
}

export class OnvifError extends Error {}

async function soap(t: OnvifTarget, action: string, body: string): Promise<string> {
  const header = t.user ? security(t.user, t.password ?? '') : '';
  const xml = `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" xmlns:tt="http://www.onvif.org/ver10/schema">${header}<s:Body>${body}</s:Body></s:Envelope>`;
  let res: Response;
  try {
    res = await fetch(t.url, {
      method: 'POST',
      headers: { 'content-type': `application/soap+xml; charset=utf-8; action="${action}"` },
      body: xml,
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    throw new OnvifError('unreachable');
  }
  const text = await res.text();
  if (!res.ok || /<(\w+:)?Fault>/.test(text)) {
    const reason = /<(?:\w+:)?Text[^>]*>([^<]{1,200})</.exec(text)?.[1] ?? `HTTP ${res.status}`;
    throw new OnvifError(reason);
  }
  return text;
}

const PTZ = 'http://www.onvif.org/ver20/ptz/wsdl';

export async function firstProfile(t: OnvifTarget): Promise<string> {
  const text = await soap(t, 'http://www.onvif.org/ver10/media/wsdl/GetProfiles', '<trt:GetProfiles/>');
  const token = /<(?:\w+:)?Profiles[^>]*\stoken="([^"]+)"/.exec(text)?.[1];
  if (!token) throw new OnvifError('no media profile');
  return token;
}

export async function continuousMove(t: OnvifTarget, dir: PtzDirection, speed: PtzSpeed): Promise<void> {
  const profile = await firstProfile(t);
  const v = PTZ_SPEED_VALUE[speed];
  const [x, y, z] = {
    up: [0, v, 0],
    down: [0, -v, 0],
    left: [-v, 0, 0],
    right: [v, 0, 0],
    zoomIn: [0, 0, v],
    zoomOut: [0, 0, -v],
  }[dir];
  const velocity = dir === 'zoomIn' || dir === 'zoomOut' ? `<tt:Zoom x="${z}"/>` : `<tt:PanTilt x="${x}" y="${y}"/>`;
  await soap(
    t,
    `${PTZ}/ContinuousMove`,
    `<tptz:ContinuousMove><tptz:ProfileToken>${esc(profile)}</tptz:ProfileToken><tptz:Velocity>${velocity}</tptz:Velocity></tptz:ContinuousMove>`,
  );
}

export async function stop(t: OnvifTarget): Promise<void> {
  const profile = await firstProfile(t);
  await soap(
    t,
    `${PTZ}/Stop`,
    `<tptz:Stop><tptz:ProfileToken>${esc(profile)}</tptz:ProfileToken><tptz:PanTilt>true</tptz:PanTilt><tptz:Zoom>true</tptz:Zoom></tptz:Stop>`,
  );
}

export async function presets(t: OnvifTarget): Promise<{ token: string; name: string }[]> {
  const profile = await firstProfile(t);
  const text = await soap(
    t,
    `${PTZ}/GetPresets`,
    `<tptz:GetPresets><tptz:ProfileToken>${esc(profile)}</tptz:ProfileToken></tptz:GetPresets>`,
  );
  const out: { token: string; name: string }[] = [];
  for (const m of text.matchAll(/<(?:\w+:)?Preset\s[^>]*token="([^"]+)"[^>]*>([\s\S]*?)<\/(?:\w+:)?Preset>/g)) {
    const name = /<(?:\w+:)?Name>([^<]*)</.exec(m[2] ?? '')?.[1] ?? m[1] ?? '';
    out.push({ token: m[1] ?? '', name });
  }
  return out;
}

export async function gotoPreset(t: OnvifTarget, token: string, speed: PtzSpeed): Promise<void> {
  const profile = await firstProfile(t);
  const v = PTZ_SPEED_VALUE[speed];
  await soap(
    t,
    `${PTZ}/GotoPreset`,
    `<tptz:GotoPreset><tptz:ProfileToken>${esc(profile)}</tptz:ProfileToken><tptz:PresetToken>${esc(token)}</tptz:PresetToken><tptz:Speed><tt:PanTilt x="${v}" y="${v}"/><tt:Zoom x="${v}"/></tptz:Speed></tptz:GotoPreset>`,
  );
}
