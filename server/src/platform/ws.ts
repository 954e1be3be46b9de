import type { WebSocket } from 'ws';
import { inScope, type DataScope } from './auth/access.ts';

interface Client {
  socket: WebSocket;
  scope: DataScope;
  /** Sites this socket asked for; `all` = every site of its scope. */
  sites: Set<number>;
  all: boolean;
}

/**
 * Browser sockets by session. A socket subscribes to sites ({"type":"subscribe","platformIds":[...]}
 * or "all"); publish() sends a site's events only to sockets that subscribed to it and whose user's
 * data scope holds the site. When a session ends (logout, another login, password change, disable)
 * its sockets are closed at once with code 4001.
 */
export class SocketHub {
  private bySession = new Map<number, Set<Client>>();
  private clients = new Set<Client>();
  /** Messages dropped because a socket's send buffer was full (a slow browser never slows ingest). */
  dropped = 0;

  add(sessionId: number, socket: WebSocket, scope: DataScope = { all: true }): void {
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    const client: Client = { socket, scope, sites: new Set(), all: false };
    set.add(client);
    this.clients.add(client);
    socket.on('message', (raw) => this.onMessage(client, raw.toString()));
    socket.on('close', () => {
      set.delete(client);
      this.clients.delete(client);
      if (set.size === 0) this.bySession.delete(sessionId);
    });
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
          if (Number.isInteger(id) && inScope(c.scope, id as number)) c.sites.add(id as number);
    } else if (ids === 'all') {
      c.all = false;
      c.sites.clear();
    } else for (const id of ids) c.sites.delete(id as number);
    c.socket.send(JSON.stringify({ type: 'subscribed', all: c.all, platformIds: [...c.sites] }));
  }

  /**
   * Sends an event of a site to the sockets that subscribed to it and may see it. `everyone`: to every
   * socket whose user may see the site, subscribed or not (alerts: every permitted console pops them up
   * without taking the site's readings).
   */
  publish(platformId: number, event: object, opts: { everyone?: boolean } = {}): void {
    if (this.clients.size === 0) return;
    let text: string | null = null;
    for (const c of this.clients) {
      if (!(opts.everyone || c.all || c.sites.has(platformId)) || !inScope(c.scope, platformId)) continue;
      if (c.socket.readyState !== 1) continue;
      if (c.socket.bufferedAmount > 4 * 1024 * 1024) {
        this.dropped++;
        continue;
      }
      text ??= JSON.stringify(event);
      c.socket.send(text);
    }
  }

  /** Does any socket listen to this site (so callers can skip building events)? */
  hasListeners(platformId: number): boolean {
    for (const c of this.clients) if ((c.all || c.sites.has(platformId)) && inScope(c.scope, platformId)) return true;
    return false;
  }

  endSessions(sessionIds: readonly number[], reason = 'session ended'): void {
    for (const id of sessionIds) {
      for (const c of this.bySession.get(id) ?? []) c.socket.close(4001, reason);
      this.bySession.delete(id);
    }
  }

  count(): number {
    return this.clients.size;
  }

  closeAll(): void {
    for (const c of this.clients) c.socket.close(1001, 'server shutting down');
    this.bySession.clear();
    this.clients.clear();
  }
}
