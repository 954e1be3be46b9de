import crypto from 'node:crypto';
import { Status, checkPassword, passwordKey, SUPER_ADMIN_ROLE, PASSWORD_MIN, PASSWORD_MAX } from '@geosentry/contract';
import type { CaptchaImage, LoginBody, PublicConfig, UserInfo } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Answer } from '../../platform/http/route.ts';
import { decrypt, encrypt, hmacHex, newToken, safeEqualHex, sha256hex } from '../../platform/auth/crypto.ts';
import { endSessions } from '../../platform/auth/sessions.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { writeAudit } from '../../platform/audit.ts';
import * as repo from './session.repository.ts';
import { renderCaptcha } from './captcha.ts';

/** Lockout rules (spec §5, §9). */
export const MAX_FAILS = 5;
export const LOCK_SHORT_MS = 10 * 60_000;
export const LOCK_DAY_MS = 24 * 3600_000;
/** A login time further than this from the server clock is refused. */
export const TIME_WINDOW_MS = 5 * 60_000;
export const CAPTCHA_TTL_MS = 2 * 60_000;
export const TICKET_TTL_MS = 2 * 60_000;
/** Identifying-code characters: no look-alikes (0/O, 1/I/L); compared case-insensitively. */
export const CAPTCHA_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CAPTCHA_LENGTH = 4;

/**
 * Test-only observation point: security tests that need many right captcha answers read them here
 * (the database keeps only a hash). Unset outside those tests.
 */
export const sessionTestHooks: { captchaIssued?: (captchaId: string, answer: string) => void } = {};

interface Meta {
  ip: string;
  userAgent: string;
}

const today = (): string => new Date().toISOString().slice(0, 10);

export class SessionService {
  private readonly dummyKeyEnc: string;

  constructor(private readonly ctx: AppContext) {
    // Unknown accounts are checked against this, so they cost what a known account costs.
    this.dummyKeyEnc = encrypt(ctx.secret, passwordKey(crypto.randomBytes(16).toString('hex')));
  }

  publicConfig(): PublicConfig {
    const c = this.ctx.config;
    return {
      systemTitle: c.systemTitle,
      projectTitle: c.projectTitle,
      systemIcon: null,
      copyright: c.copyright,
      supportPhone: c.supportPhone,
      captcha: c.captcha,
      platformType: c.platformType,
      appDownloadUrl: c.appDownloadUrl,
    };
  }

  async captcha(): Promise<CaptchaImage> {
    // Only the unambiguous alphabet (no 0/O, 1/I/L): the answer is case-insensitive.
    let text = '';
    for (let i = 0; i < CAPTCHA_LENGTH; i++) text += CAPTCHA_ALPHABET[crypto.randomInt(CAPTCHA_ALPHABET.length)];
    const png = renderCaptcha(text);
    const id = crypto.randomUUID();
    await repo.saveCaptcha(this.ctx.db, id, sha256hex(text.toLowerCase()), CAPTCHA_TTL_MS);
    sessionTestHooks.captchaIssued?.(id, text);
    return {
      captchaId: id,
      image: `data:image/png;base64,${png.toString('base64')}`,
      expiresInSeconds: CAPTCHA_TTL_MS / 1000,
    };
  }

  private async checkCaptcha(input: LoginBody, userIdForTicket: () => Promise<number | null>): Promise<void> {
    if (!this.ctx.config.captcha) return;
    if (input.ticket) {
      const t = await repo.takeTicket(this.ctx.db, sha256hex(input.ticket));
      const uid = await userIdForTicket();
      if (t && t.expires_at.getTime() > Date.now() && uid === t.user_id) return;
      throw new AppError(Status.badRequest, 'captchaExpired');
    }
    if (!input.captchaId || !input.captcha) throw new AppError(Status.badRequest, 'captchaRequired');
    const c = await repo.takeCaptcha(this.ctx.db, input.captchaId);
    if (!c || c.expires_at.getTime() < Date.now()) throw new AppError(Status.badRequest, 'captchaExpired');
    if (!safeEqualHex(c.answer_hash, sha256hex(input.captcha.trim().toLowerCase())))
      throw new AppError(Status.badRequest, 'captchaWrong');
  }

  async login(input: LoginBody, meta: Meta): Promise<Answer> {
    const db = this.ctx.db;
    const account = input.account.trim();
    if (!account || !input.signature) throw new AppError(Status.invalid, 'accountPasswordRequired');
    if (!/^[0-9a-fA-F]{64}$/.test(input.signature) || !/^\d{10,16}$/.test(input.time))
      throw new AppError(Status.badRequest, 'loginFailed');
    const lockKey = account.toLowerCase();
    let user: repo.UserAuthRow | undefined;
    let looked = false;
    const lookup = async (): Promise<repo.UserAuthRow | undefined> => {
      if (!looked) {
        user = await repo.findUserByAccount(db, account);
        looked = true;
      }
      return user;
    };

    await this.checkCaptcha(input, async () => (await lookup())?.id ?? null);

    const t = Number(input.time);
    if (!Number.isFinite(t) || Math.abs(Date.now() - t) > TIME_WINDOW_MS)
      throw new AppError(Status.badRequest, 'loginTimeout');
    if (
      !(await repo.useSignature(
        db,
        sha256hex(`${lockKey}:${input.signature.toLowerCase()}`),
        2 * TIME_WINDOW_MS + 60_000,
      ))
    ) {
      throw new AppError(Status.badRequest, 'loginFailed');
    }

    // Per client address: failed password evaluations use up a token bucket (a right one gives its token back).
    const rate = this.ctx.config.loginRatePerMinute;
    if (rate > 0 && !(await repo.takeLoginToken(db, meta.ip, rate)))
      throw new AppError(Status.tooMany, 'loginThrottled');

    // Per account as typed (also for accounts that do not exist): the attempt is counted before the
    // password is checked, in one statement, so parallel attempts cannot pass the lockout.
    const reserve = (): Promise<repo.AttemptRow | undefined> =>
      repo.reserveAttempt(db, lockKey, today(), { maxFails: MAX_FAILS, shortMs: LOCK_SHORT_MS, dayMs: LOCK_DAY_MS });
    let a = await reserve();
    // A lock set by an attempt still being checked is provisional (its password may be right and lift it):
    // wait for it, up to 10 s. A provisional lock older than 10 s (its process died) counts as settled.
    for (let tries = 0; !a && tries < 100; tries++) {
      const cur = await repo.getAttempts(db, lockKey);
      const since = cur?.locked_until ? cur.locked_until.getTime() - (cur.stage >= 2 ? LOCK_DAY_MS : LOCK_SHORT_MS) : 0;
      if (cur?.locked_until && (cur.settled || since < Date.now() - 10_000)) break;
      if (cur) await new Promise((r) => setTimeout(r, 100));
      a = await reserve();
    }
    if (!a) {
      const cur = await repo.getAttempts(db, lockKey);
      if (cur && cur.stage >= 2) throw new AppError(Status.forbidden, 'tryTomorrow');
      const left = cur?.locked_until ? cur.locked_until.getTime() - Date.now() : LOCK_SHORT_MS;
      throw new AppError(Status.forbidden, 'lockedMinutes', { minutes: Math.max(1, Math.ceil(left / 60_000)) });
    }

    const u = await lookup();
    const key = decrypt(this.ctx.secret, u?.key_enc ?? this.dummyKeyEnc);
    const ok = safeEqualHex(hmacHex(key, input.time), input.signature) && u !== undefined;

    if (!ok) {
      if (a.locked_until) await repo.settleLock(db, lockKey);
      let answer: AppError;
      if (a.stage >= 2) answer = new AppError(Status.forbidden, 'lockedDay');
      else if (a.stage === 1) answer = new AppError(Status.forbidden, 'locked10');
      else {
        const remaining = MAX_FAILS - a.fails;
        answer = new AppError(Status.unauthorized, 'wrongPassword', { remaining }, { remaining });
      }
      await writeAudit(db, {
        action: a.locked_until ? 'login.locked' : 'login.failure',
        userId: u?.id ?? null,
        account,
        ip: meta.ip,
        detail: { fails: a.fails, stage: a.stage },
      });
      throw answer;
    }

    // A right password resets the account's count and gives the address its token back.
    await repo.clearAttempts(db, lockKey);
    if (rate > 0) await repo.returnLoginToken(db, meta.ip, rate);
    if (!u.enabled) {
      await writeAudit(db, {
        action: 'login.failure',
        userId: u.id,
        account,
        ip: meta.ip,
        detail: { reason: 'disabled' },
      });
      throw new AppError(Status.forbidden, 'userDisabled');
    }

    const token = newToken();
    const opened = await repo.openSession(db, {
      tokenHash: sha256hex(token),
      userId: u.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      idleMs: this.ctx.config.sessionIdleMs,
      maxMs: this.ctx.config.sessionMaxMs,
      takeOver: input.flag === 1,
    });
    if (opened.elsewhere) {
      const ticket = newToken();
      await repo.saveTicket(db, sha256hex(ticket), u.id, TICKET_TTL_MS);
      await writeAudit(db, { action: 'login.elsewhere', userId: u.id, account: u.account, ip: meta.ip });
      return { status: Status.warnOther, key: 'loginElsewhere', data: { elsewhere: true, ticket } };
    }
    if (opened.ended.length > 0) this.ctx.hub.endSessions(opened.ended, 'logged in elsewhere');
    if (opened.kicked > 0) {
      await writeAudit(db, {
        action: 'login.kicked',
        userId: u.id,
        account: u.account,
        ip: meta.ip,
        detail: { sessions: opened.kicked },
      });
    }
    await writeAudit(db, { action: 'login.success', userId: u.id, account: u.account, ip: meta.ip });
    return {
      data: {
        token,
        platformType: this.ctx.config.platformType,
        account: u.account,
        timeZone: u.time_zone ?? null,
        systemTimeZone: this.ctx.config.timeZone,
      },
    };
  }

  async logout(user: SessionUser, meta: Meta): Promise<void> {
    const ended = await endSessions(this.ctx.db, { sessionIds: [user.sessionId] }, 'logout');
    this.ctx.hub.endSessions(ended, 'logout');
    await writeAudit(this.ctx.db, { action: 'logout', userId: user.id, account: user.account, ip: meta.ip });
  }

  async userInfo(user: SessionUser): Promise<UserInfo> {
    const db = this.ctx.db;
    const row = await repo.loadUserInfo(db, user.id);
    if (!row) throw new AppError(Status.notCertified, 'userNotFound');
    const permissions =
      row.role_code === SUPER_ADMIN_ROLE ? await repo.allPermissionCodes(db) : [...user.permissions].sort();
    const c = this.ctx.config;
    return {
      user: {
        id: row.id,
        account: row.account,
        name: row.name,
        phone: row.phone,
        email: row.email,
        area: row.area,
        timeZone: row.time_zone,
        scopeAll: row.scope_all || row.role_code === SUPER_ADMIN_ROLE,
        platformIds: user.scope.all ? [] : [...user.scope.platformIds],
      },
      role: { id: row.role_id, code: row.role_code, name: row.role_name, roleFileId: row.role_file_id },
      permissions,
      platformType: c.platformType,
      systemTitle: c.systemTitle,
      projectTitle: c.projectTitle,
      systemIcon: null,
      roleFileId: row.role_file_id,
      systemTimeZone: c.timeZone,
    };
  }

  async changePassword(
    user: SessionUser,
    input: { signature: string; time: string; newPassword: string },
    meta: Meta,
  ): Promise<void> {
    const db = this.ctx.db;
    const t = Number(input.time);
    if (Math.abs(Date.now() - t) > TIME_WINDOW_MS) throw new AppError(Status.badRequest, 'loginTimeout');
    if (
      !(await repo.useSignature(
        db,
        sha256hex(`pw:${user.id}:${input.signature.toLowerCase()}`),
        2 * TIME_WINDOW_MS + 60_000,
      ))
    ) {
      throw new AppError(Status.badRequest, 'loginFailed');
    }
    const row = await repo.findUserKey(db, user.id);
    if (!row) throw new AppError(Status.notCertified, 'userNotFound');
    const oldKey = decrypt(this.ctx.secret, row.key_enc);
    if (!safeEqualHex(hmacHex(oldKey, input.time), input.signature))
      throw new AppError(Status.unauthorized, 'oldPasswordWrong');
    const newKey = passwordKey(input.newPassword);
    if (newKey === oldKey) throw new AppError(Status.invalid, 'samePassword');
    assertPasswordRules(input.newPassword, row.account);
    await repo.setUserKey(db, user.id, encrypt(this.ctx.secret, newKey));
    const ended = await endSessions(db, { userId: user.id }, 'password');
    this.ctx.hub.endSessions(ended, 'password changed');
    await writeAudit(db, { action: 'password.change', userId: user.id, account: user.account, ip: meta.ip });
  }
}

/** Raises the translated rule a password breaks, if any. */
export function assertPasswordRules(password: string, account?: string): void {
  const p = checkPassword(password, account);
  if (p === 'tooShort') throw new AppError(Status.invalid, 'passwordTooShort', { min: PASSWORD_MIN });
  if (p === 'tooLong') throw new AppError(Status.invalid, 'passwordTooLong', { max: PASSWORD_MAX });
  if (p === 'common') throw new AppError(Status.invalid, 'passwordCommon');
  if (p === 'sameAsAccount') throw new AppError(Status.invalid, 'passwordSameAsAccount');
}
