import crypto from 'node:crypto';
import { Status, type TerminalKeyAnswer, type TerminalRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { newToken, safeEqualHex, sha256hex } from '../../platform/auth/crypto.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { isDbId } from '../../platform/db/sql.ts';
import { findSite } from '../../platform/auth/sites.ts';
import * as repo from './terminals.repository.ts';

/** The stored form of a terminal key: sha256 hex of "<salt>:<key>" with a per-row random salt. */
export function hashTerminalKey(salt: string, key: string): string {
  return sha256hex(`${salt}:${key}`);
}

function freshKey(): { key: string; salt: string; hash: string } {
  const key = newToken();
  const salt = crypto.randomBytes(16).toString('hex');
  return { key, salt, hash: hashTerminalKey(salt, key) };
}

// Compared against when the terminal is unknown, so that unknown and known ids take the same path.
const DUMMY = {
  key_salt: crypto.randomBytes(16).toString('hex'),
  key_hash: sha256hex(crypto.randomBytes(32).toString('hex')),
};

/**
 * Device ingest: checks a terminal's id and key (constant-time compare of the salted hashes) and answers the
 * numbers of the devices it may publish for (bound to it and to a site), or null.
 * terminalId is the numeric terminal id (a string of digits is accepted, e.g. an MQTT user name).
 */
export async function authenticateTerminal(
  db: Db,
  terminalId: number | string,
  key: string,
): Promise<{ terminalId: number; deviceNumbers: Set<string> } | null> {
  const id =
    typeof terminalId === 'number'
      ? terminalId
      : /^\d{1,10}$/.test(terminalId.trim())
        ? Number(terminalId.trim())
        : NaN;
  const rec = isDbId(id) ? await repo.terminalKeyRecord(db, id) : undefined;
  const given = typeof key === 'string' && key.length > 0 && key.length <= 256 ? key : '';
  const stored = rec ?? DUMMY;
  const match = safeEqualHex(hashTerminalKey(stored.key_salt, given), stored.key_hash);
  if (!rec || !match || !given) return null;
  return { terminalId: id, deviceNumbers: new Set(await repo.terminalDeviceNumbers(db.k, id)) };
}

export class TerminalsService {
  constructor(private readonly ctx: AppContext) {}

  list(user: SessionUser, f: repo.TerminalFilter): Promise<{ list: TerminalRow[]; total: number }> {
    return repo.listTerminals(this.ctx.db, user.scope, f);
  }

  all(user: SessionUser, platformId?: number): Promise<TerminalRow[]> {
    return repo.allTerminals(this.ctx.db, user.scope, platformId);
  }

  private async mustGet(user: SessionUser, id: number): Promise<TerminalRow> {
    const t = await repo.getTerminal(this.ctx.db, user.scope, id);
    if (!t) throw new AppError(Status.notFound, 'terminalNotFound');
    return t;
  }

  private async checkPlacement(user: SessionUser, w: repo.TerminalWrite, self?: number): Promise<void> {
    if (!(await findSite(this.ctx.db, user.scope, w.platformId)))
      throw new AppError(Status.notFound, 'platformNotFound');
    if (w.parentId === undefined) return;
    const parent = await repo.getTerminal(this.ctx.db, user.scope, w.parentId);
    if (!parent || parent.platformId !== w.platformId || parent.terminalId === self) {
      throw new AppError(Status.invalid, 'terminalParentInvalid');
    }
    if (self !== undefined && (await repo.terminalAncestors(this.ctx.db, parent.terminalId)).includes(self)) {
      throw new AppError(Status.invalid, 'terminalParentInvalid');
    }
  }

  private uniqueError(e: unknown): unknown {
    if (isUniqueViolation(e, 'terminals_serial_uq')) return new AppError(Status.conflict, 'terminalExists');
    if (isUniqueViolation(e, 'terminals_name_uq')) return new AppError(Status.conflict, 'nameDuplicate');
    return e;
  }

  /** Adds a terminal and answers its key, shown this once. */
  async add(user: SessionUser, w: repo.TerminalWrite): Promise<TerminalKeyAnswer> {
    await this.checkPlacement(user, w);
    const k = freshKey();
    try {
      const terminalId = await repo.insertTerminal(this.ctx.db, w, { salt: k.salt, hash: k.hash });
      return { terminalId, key: k.key };
    } catch (e) {
      throw this.uniqueError(e);
    }
  }

  async edit(user: SessionUser, id: number, w: repo.TerminalWrite): Promise<void> {
    const before = await this.mustGet(user, id);
    await this.checkPlacement(user, w, id);
    const moved = before.platformId !== w.platformId;
    if (moved) await this.refuseWithDevices(id);
    try {
      await repo.updateTerminal(this.ctx.db, id, w, moved);
    } catch (e) {
      throw this.uniqueError(e);
    }
  }

  private async refuseWithDevices(id: number): Promise<void> {
    const names = await repo.terminalDeviceNames(this.ctx.db, id);
    if (!names.length) return;
    const shown = names.slice(0, 10).join(', ') + (names.length > 10 ? ` (+${names.length - 10})` : '');
    throw new AppError(Status.conflict, 'terminalHasDevices', { names: shown });
  }

  /** Deletes a terminal; refused while devices are bound to it (the message names them). */
  async remove(user: SessionUser, id: number): Promise<void> {
    await this.mustGet(user, id);
    await this.refuseWithDevices(id);
    await repo.deleteTerminal(this.ctx.db, id);
  }

  /** Issues a new key (answered this once); the old key stops working at once. */
  async rotateKey(user: SessionUser, id: number): Promise<TerminalKeyAnswer> {
    await this.mustGet(user, id);
    const k = freshKey();
    await repo.setTerminalKey(this.ctx.db, id, { salt: k.salt, hash: k.hash });
    return { terminalId: id, key: k.key };
  }
}
