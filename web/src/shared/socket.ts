import { useEffect, useRef, useSyncExternalStore } from 'react';
import i18n from './i18n.ts';
import { apiEvents } from './api.ts';
import { clearSession, getToken } from './storage.ts';

/**
 * The browser socket of a signed-in session (/api/v2/ws?token=...). The server closes it with code
 * 4001 the moment the session ends (logout elsewhere, another login with "log in here", a password
 * change, the account disabled), so the console goes to /login at once instead of on its next call.
 * Other closes reconnect with a growing delay. Later features may listen to its messages.
 */
export const SESSION_ENDED_CODE = 4001;

type Listener = (message: unknown) => void;

let socket: WebSocket | null = null;
let wanted = false;
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<Listener>();
/** The server has greeted the current socket ({"type":"hello"}): subscriptions may be sent. */
let greeted = false;
const statusListeners = new Set<() => void>();
function setGreeted(v: boolean): void {
  if (greeted === v) return;
  greeted = v;
  for (const l of statusListeners) l();
}

export const socketSupported = (): boolean => typeof window !== 'undefined' && 'WebSocket' in window;

function endedMessage(reason: string): string {
  if (reason === 'logged in elsewhere') return i18n.t('common:session.kicked');
  if (reason === 'password changed') return i18n.t('common:session.passwordChanged');
  return i18n.t('common:session.ended');
}

function open(): void {
  const token = getToken();
  if (!wanted || !token || !socketSupported()) return;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${window.location.host}/api/v2/ws?token=${encodeURIComponent(token)}`);
  socket = ws;
  ws.onopen = () => {
    attempt = 0;
  };
  ws.onmessage = (e: MessageEvent) => {
    let data: unknown = e.data;
    try {
      data = JSON.parse(String(e.data));
    } catch {
      /* not JSON: pass the text on */
    }
    if (isHello(data) && socket === ws) {
      setGreeted(true);
      resubscribe();
    }
    for (const l of listeners) l(data);
  };
  ws.onclose = (e: CloseEvent) => {
    if (socket !== ws) return;
    socket = null;
    setGreeted(false);
    if (!wanted) return;
    if (e.code === SESSION_ENDED_CODE) {
      wanted = false;
      // Only when this very session ended (not an older token after a new login in this browser).
      if (getToken() === token) {
        clearSession();
        apiEvents.onSessionEnd(endedMessage(e.reason));
      }
      return;
    }
    const delay = Math.min(30_000, 1000 * 2 ** attempt++);
    timer = setTimeout(open, delay);
  };
}

/** Opens the session socket (idempotent). */
export function startSessionSocket(): void {
  if (wanted) return;
  wanted = true;
  attempt = 0;
  open();
}

/** Closes the session socket on purpose (before logout or a password change), so its close is not taken as a session end. */
export function stopSessionSocket(): void {
  wanted = false;
  clearTimeout(timer);
  const ws = socket;
  socket = null;
  setGreeted(false);
  if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000, 'client');
}

/** Receives every message of the session socket; returns the unsubscribe function. */
export function onSocketMessage(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

const isHello = (m: unknown): boolean =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'hello';

/** Sends a message on the session socket once the server has greeted it; false when it could not be sent. */
export function send(message: object): boolean {
  if (!socket || !greeted || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

/** Is the session socket connected and greeted (live data flows)? */
export function useSocketConnected(): boolean {
  return useSyncExternalStore(
    (l) => {
      statusListeners.add(l);
      return () => statusListeners.delete(l);
    },
    () => greeted,
  );
}

// ---- Site subscriptions: reference-counted, sent after "hello" and again after every reconnect ----

const siteRefs = new Map<number, number>();
let allRefs = 0;

function resubscribe(): void {
  if (allRefs > 0) send({ type: 'subscribe', platformIds: 'all' });
  else if (siteRefs.size > 0) send({ type: 'subscribe', platformIds: [...siteRefs.keys()] });
}

function retain(ids: readonly number[] | 'all'): void {
  if (ids === 'all') {
    if (allRefs++ === 0) send({ type: 'subscribe', platformIds: 'all' });
    return;
  }
  const fresh = ids.filter((id) => {
    const n = siteRefs.get(id) ?? 0;
    siteRefs.set(id, n + 1);
    return n === 0;
  });
  if (fresh.length > 0 && allRefs === 0) send({ type: 'subscribe', platformIds: fresh });
}

function release(ids: readonly number[] | 'all'): void {
  if (ids === 'all') {
    if (--allRefs === 0) {
      send({ type: 'unsubscribe', platformIds: 'all' });
      if (siteRefs.size > 0) send({ type: 'subscribe', platformIds: [...siteRefs.keys()] });
    }
    return;
  }
  const gone = ids.filter((id) => {
    const n = (siteRefs.get(id) ?? 1) - 1;
    if (n <= 0) siteRefs.delete(id);
    else siteRefs.set(id, n);
    return n <= 0;
  });
  if (gone.length > 0 && allRefs === 0) send({ type: 'unsubscribe', platformIds: gone });
}

/** A reading pushed by the server for a subscribed site. */
export interface SiteReading {
  type: 'reading';
  platformId: number;
  deviceId: number;
  /** ISO 8601 time of the reading. */
  ts: string;
  values: Record<string, number>;
}

/** A device's state change pushed by the server. */
export interface SiteDeviceState {
  type: 'deviceState';
  platformId: number;
  deviceId: number;
  state: 'normal' | 'alert' | 'alarm' | 'abnormal' | 'offline';
}

export type SiteEvent = SiteReading | SiteDeviceState;

function isSiteEvent(m: unknown): m is SiteEvent {
  if (typeof m !== 'object' || m === null) return false;
  const e = m as Partial<SiteEvent>;
  return (e.type === 'reading' || e.type === 'deviceState') && typeof e.platformId === 'number';
}

/**
 * Live events of sites: subscribes to them (after the server's hello, and again after a reconnect), calls
 * `onEvent` for every reading and state change of those sites, and unsubscribes when the sites change or the
 * component goes. `platformIds` null or empty: nothing. Returns whether live data flows and whether the browser
 * supports sockets at all (spec §5: browsers without socket support get a warning).
 */
export function useSiteReadings(
  platformIds: readonly number[] | 'all' | null,
  onEvent: (event: SiteEvent) => void,
): { connected: boolean; supported: boolean } {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key =
    platformIds === 'all' ? 'all' : platformIds ? [...new Set(platformIds)].sort((a, b) => a - b).join(',') : '';
  useEffect(() => {
    if (!key) return;
    const ids: number[] | 'all' = key === 'all' ? 'all' : key.split(',').map(Number);
    const wanted = ids === 'all' ? null : new Set(ids);
    retain(ids);
    const off = onSocketMessage((m) => {
      if (isSiteEvent(m) && (wanted === null || wanted.has(m.platformId))) handler.current(m);
    });
    return () => {
      off();
      release(ids);
    };
  }, [key]);
  const connected = useSocketConnected();
  return { connected, supported: socketSupported() };
}
