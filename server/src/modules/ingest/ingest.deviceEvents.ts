import type { Db } from '../../platform/db/db.ts';

/**
 * In-process signal "these device numbers were added, bound, moved, unbound or deleted", sent by the registry
 * after its change committed and heard by ingest's device cache, so a device added a moment ago is accepted at
 * once (its number was cached as unknown while its logger was already sending). Keyed by the database handle:
 * every service of an app shares it. Another server process on the same database does not hear it; there the
 * cache entry expires (a few seconds).
 */
type Listener = (numbers: readonly string[]) => void;

const listeners = new WeakMap<Db, Set<Listener>>();

/** Listens to device changes of this database; answers the function that stops listening. */
export function onDevicesChanged(db: Db, fn: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

/** Says that these device numbers changed (call after the change committed). */
export function devicesChanged(db: Db, numbers: readonly string[]): void {
  if (numbers.length === 0) return;
  for (const fn of listeners.get(db) ?? []) fn(numbers);
}
