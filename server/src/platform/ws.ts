import type { WebSocket } from 'ws';

/**
 * Browser sockets by session. When a session ends (logout, another login, password change,
 * disable) its sockets are closed at once with code 4001. Later features publish here per site.
 */
export class SocketHub {
  private bySession = new Map<number, Set<WebSocket>>();

  add(sessionId: number, socket: WebSocket): void {
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(socket);
    socket.on('close', () => {
      set.delete(socket);
      if (set.size === 0) this.bySession.delete(sessionId);
    });
  }

  endSessions(sessionIds: readonly number[], reason = 'session ended'): void {
    for (const id of sessionIds) {
      for (const s of this.bySession.get(id) ?? []) s.close(4001, reason);
      this.bySession.delete(id);
    }
  }

  count(): number {
    let n = 0;
    for (const s of this.bySession.values()) n += s.size;
    return n;
  }

  closeAll(): void {
    for (const set of this.bySession.values()) for (const s of set) s.close(1001, 'server shutting down');
    this.bySession.clear();
  }
}
