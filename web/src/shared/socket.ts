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
    for (const l of listeners) l(data);
  };
  ws.onclose = (e: CloseEvent) => {
    if (socket !== ws) return;
    socket = null;
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
  if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000, 'client');
}

/** Receives every message of the session socket; returns the unsubscribe function. */
export function onSocketMessage(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
