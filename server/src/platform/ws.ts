import { sql } from 'kysely';
import type { WebSocket } from 'ws';
import { SUPER_ADMIN_ROLE } from '@geosentry/contract';
import type { Db } from './db/db.ts';
import { inScope, type DataScope } from './auth/access.ts';

/**
 * What a socket may receive. Readings feed the monitor screens: they need the `monitor` group (every monitor screen
 * grants it, as the monitor views' own routes require) or a monitor screen. Device states feed those screens and
 * the situation pages. Alerts and their status changes feed the alert pop-up: they need the alert list's
 * permission. The big screen (`digitalGallery`) shows all three live; home (`index`) refreshes its counts on
 * device states and alerts, and shows no readings.
 */
export const SOCKET_ALERT_PERMISSION = 'alert-predict:alert';
export const SOCKET_BIG_SCREEN_PERMISSION = 'digitalGallery';
export const SOCKET_HOME_PERMISSION = 'index';
const ALERT_EVENTS = new Set(['alert', 'alertStatus']);
const STATE_EVENTS = new Set(['deviceState']);

export interface SocketRights {
  scope: DataScope;
  /** Readings (and any site event that is neither a state nor an alert). */
  readings: boolean;
  /** Device state changes. */
  states: boolean;
  alerts: boolean;
}

/** The rights of a user of this role, permission codes and data scope. */
export function socketRights(roleCode: string, permissions: Iterable<string>, scope: DataScope): SocketRights {
  if (roleCode === SUPER_ADMIN_ROLE) return { scope, readings: true, states: true, alerts: true };
  let readings = false;
  let states = false;
  let alerts = false;
  for (const p of permissions) {
    if (p === 'monitor' || p.startsWith('monitor:') || p === SOCKET_BIG_SCREEN_PERMISSION) readings = states = true;
    if (p === SOCKET_ALERT_PERMISSION || p === SOCKET_BIG_SCREEN_PERMISSION || p === SOCKET_HOME_PERMISSION)
      alerts = true;
    if (p === SOCKET_HOME_PERMISSION) states = true;
  }
  return { scope, readings, states, alerts };
}

/** The right an event needs. */
function rightOf(event: object): 'readings' | 'states' | 'alerts' {
  const type = (event as { type?: string }).type ?? '';
  return ALERT_EVENTS.has(type) ? 'alerts' : STATE_EVENTS.has(type) ? 'states' : 'readings';
}

/**
 * May a browser socket be opened from this Origin? Same origin as the request's host (the Host header, or the
 * forwarded host behind a trusted proxy), or one of ALLOWED_ORIGINS. No Origin at all (a non-browser client)
 * is allowed: the token still decides who it is.
 */
export function originAllowed(
  origin: string | undefined,
  hosts: readonly (string | undefined)[],
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  const o = origin.trim().toLowerCase();
  if (allowed.includes(o)) return true;
  let u: URL;
  try {
    u = new URL(o);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  return hosts.some((h) => !!h && h.toLowerCase() === u.host);
}

interface Client {
  socket: WebSocket;
  rights: SocketRights;
  /** Sites this socket asked for (they count while the scope holds them); `all` = every site of its scope. */
  sites: Set<number>;
  all: boolean;
  /** The session's user (messages of his own, such as his jobs' progress); null when not given. */
  userId: number | null;
}

interface SessionRow {
  session_id: number;
  alive: boolean;
  end_reason: string | null;
  role_code: string;
  scope_all: boolean;
  permissions: string[] | null;
  platform_ids: number[] | null;
}

/** The close reason the console shows for a session's end (web/src/shared/socket.ts knows these). */
function closeReason(endReason: string | null): string {
  if (endReason === 'kicked') return 'logged in elsewhere';
  if (endReason === 'password') return 'password changed';
  if (endReason === null || endReason === 'idle' || endReason === 'expired') return 'login expired';
  return 'session ended';
}

/**
 * Browser sockets by session. A socket subscribes to sites ({"type":"subscribe","platformIds":[...]}
 * or "all"); publish() sends a site's events only to sockets that subscribed to it, whose user's data
 * scope holds the site and whose role holds the event's permission. When a session ends (logout, another
 * login, password change, disable) its sockets are closed at once with code 4001.
 *
 * Rights are not frozen at connect: every RECHECK_MS one statement reads, for all sessions with open
 * sockets, whether the session still lives (not ended, not idle, not past its lifetime, user enabled and
 * present) and the user's current role permissions and scope. A session that ended closes its sockets
 * (4001); changed rights apply to the next message. The check does not touch the session, so an open
 * socket does not keep a session alive: only requests do.
 */
export class SocketHub {
  private bySession = new Map<number, Set<Client>>();
  private clients = new Set<Client>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  /** Messages dropped because a socket's send buffer was full (a slow browser never slows ingest). */
  dropped = 0;

  add(sessionId: number, socket: WebSocket, rights: SocketRights, userId: number | null = null): void {
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    const client: Client = { socket, rights, sites: new Set(), all: false, userId };
    set.add(client);
    this.clients.add(client);
    socket.on('message', (raw) => this.onMessage(client, raw.toString()));
    socket.on('close', () => {
      set.delete(client);
      this.clients.delete(client);
      if (set.size === 0 && this.bySession.get(sessionId) === set) this.bySession.delete(sessionId);
    });
  }

  /**
   * Starts re-checking the open sockets' sessions and rights (every `everyMs`, 500 ms by default, so a change
   * applies within a second). `idleMs`: the session idle limit; `maxMs`: its absolute lifetime, for sessions
   * that carry no expiry of their own.
   */
  start(db: Db, opts: { idleMs: number; maxMs: number; everyMs?: number }): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.checking) return;
      this.checking = this.recheck(db, opts)
        .catch(() => undefined)
        .finally(() => (this.checking = null));
    }, opts.everyMs ?? 500);
    this.timer.unref();
  }

  /** One check of every open socket's session and rights (the timer's work; tests may call it). */
  async recheck(db: Db, opts: { idleMs: number; maxMs: number }): Promise<void> {
    if (this.bySession.size === 0) return;
    const ids = [...this.bySession.keys()];
    const idle = `${Math.round(opts.idleMs / 1000)} seconds`;
    const max = `${Math.round(opts.maxMs / 1000)} seconds`;
    // expires_at is read through to_jsonb: the column belongs to the session feature, and the lifetime falls
    // back to created_at + maxMs where a session has none.
    const r = await sql<SessionRow>`
      select s.id as session_id,
        (s.ended_at is null and s.last_seen_at > now() - ${idle}::interval and u.enabled
          and coalesce((to_jsonb(s) ->> 'expires_at')::timestamptz, s.created_at + ${max}::interval) > now()) as alive,
        s.end_reason, r.code as role_code, u.scope_all,
        (select array_agg(p.code) from role_permissions rp join permissions p on p.id = rp.permission_id
          where rp.role_id = u.role_id) as permissions,
        (select array_agg(up.platform_id) from user_platforms up where up.user_id = u.id) as platform_ids
      from sessions s join users u on u.id = s.user_id join roles r on r.id = u.role_id
      where s.id = any(${ids}::bigint[])`.execute(db.k);
    const rows = new Map(r.rows.map((x) => [Number(x.session_id), x]));
    for (const id of ids) {
      const row = rows.get(id);
      // No row: the session or its user was deleted.
      if (!row || !row.alive) {
        this.endSessions([id], closeReason(row ? row.end_reason : 'deleted'));
        continue;
      }
      const scope: DataScope = row.scope_all ? { all: true } : { all: false, platformIds: row.platform_ids ?? [] };
      const rights = socketRights(row.role_code, row.permissions ?? [], scope);
      for (const c of this.bySession.get(id) ?? []) c.rights = rights;
    }
  }

  private onMessage(c: Client, text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object') return;
    const m = msg as { type?: unknown; platformIds?: unknown };
    if (m.type !== 'subscribe' && m.type !== 'unsubscribe') return;
    const ids = m.platformIds === 'all' ? 'all' : Array.isArray(m.platformIds) ? m.platformIds : [];
    if (m.type === 'subscribe') {
      if (ids === 'all') c.all = true;
      else
        for (const id of ids.slice(0, 1000))
          // Kept even when out of scope for now: a scope widened later takes effect without a new subscription.
          if (Number.isInteger(id) && c.sites.size < 1000) c.sites.add(id as number);
    } else if (ids === 'all') {
      c.all = false;
      c.sites.clear();
    } else for (const id of ids) c.sites.delete(id as number);
    const visible = [...c.sites].filter((id) => inScope(c.rights.scope, id));
    c.socket.send(JSON.stringify({ type: 'subscribed', all: c.all, platformIds: visible }));
  }

  /**
   * Sends an event of a site to the sockets that subscribed to it and may see it. `everyone`: to every
   * socket whose user may see the site, subscribed or not (alerts: every permitted console pops them up
   * without taking the site's readings).
   */
  publish(platformId: number, event: object, opts: { everyone?: boolean } = {}): void {
    if (this.clients.size === 0) return;
    const right = rightOf(event);
    let text: string | null = null;
    for (const c of this.clients) {
      if (!c.rights[right]) continue;
      if (!(opts.everyone || c.all || c.sites.has(platformId)) || !inScope(c.rights.scope, platformId)) continue;
      if (c.socket.readyState !== 1) continue;
      if (c.socket.bufferedAmount > 4 * 1024 * 1024) {
        this.dropped++;
        continue;
      }
      text ??= JSON.stringify(event);
      c.socket.send(text);
    }
  }

  /**
   * Sends a user's own event (his jobs' state and progress) to the open sockets of his live sessions, whatever
   * their subscriptions: it carries nothing of a site. A session that ended has no socket here (closed at once,
   * or by the next re-check).
   */
  sendToUser(userId: number, event: object): void {
    let text: string | null = null;
    for (const c of this.clients) {
      if (c.userId !== userId || c.socket.readyState !== 1) continue;
      if (c.socket.bufferedAmount > 4 * 1024 * 1024) {
        this.dropped++;
        continue;
      }
      text ??= JSON.stringify(event);
      c.socket.send(text);
    }
  }

  /** Does any socket listen to this site's readings (so callers can skip building events)? */
  hasListeners(platformId: number): boolean {
    for (const c of this.clients)
      if (c.rights.readings && (c.all || c.sites.has(platformId)) && inScope(c.rights.scope, platformId)) return true;
    return false;
  }

  endSessions(sessionIds: readonly number[], reason = 'session ended'): void {
    for (const id of sessionIds) {
      for (const c of this.bySession.get(id) ?? []) {
        c.rights = { scope: { all: false, platformIds: [] }, readings: false, states: false, alerts: false };
        c.socket.close(4001, reason);
      }
      this.bySession.delete(id);
    }
  }

  count(): number {
    return this.clients.size;
  }

  closeAll(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const c of this.clients) c.socket.close(1001, 'server shutting down');
    this.bySession.clear();
    this.clients.clear();
  }
}
