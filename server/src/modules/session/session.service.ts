import crypto from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { Status, checkPassword, passwordKey, SUPER_ADMIN_ROLE, PASSWORD_MIN, PASSWORD_MAX } from '@geosentry/contract';
import type { CaptchaImage, LoginBody, PublicConfig, UserInfo } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Answer } from '../../platform/http/route.ts';
import { decrypt, encrypt, hmacHex, newToken, safeEqualHex, sha256hex } from '../../platform/auth/crypto.ts';
import { endSessions } from '../../platform/auth/sessions.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import * as repo from './session.repository.ts';

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
    };
  }

  async captcha(): Promise<CaptchaImage> {
    const c = svgCaptcha.create({
      size: 4,
      noise: 2,
      // Only the unambiguous alphabet (no 0/O, 1/I/L): the answer is case-insensitive.
      charPreset: CAPTCHA_ALPHABET,
      color: true,
      background: '#f4f6fa',
      width: 120,
      height: 40,
    });
    const id = crypto.randomUUID();
    await repo.saveCaptcha(this.ctx.db, id, sha256hex(c.text.toLowerCase()), CAPTCHA_TTL_MS);
    return {
      captchaId: id,
      image: `data:image/svg+xml;base64,${Buffer.from(c.data).toString('base64')}`,
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

    // Lock state, per account as typed (also for accounts that do not exist).
    let a = await repo.getAttempts(db, lockKey);
    if (a && a.day !== today() && (!a.locked_until || a.locked_until.getTime() < Date.now())) a = undefined;
    if (a?.locked_until && a.locked_until.getTime() > Date.now()) {
      if (a.stage >= 2) throw new AppError(Status.forbidden, 'tryTomorrow');
      throw new AppError(Status.forbidden, 'lockedMinutes', {
        minutes: Math.ceil((a.locked_until.getTime() - Date.now()) / 60_000),
      });
    }

    const u = await lookup();
    const key = decrypt(this.ctx.secret, u?.key_enc ?? this.dummyKeyEnc);
    const ok = safeEqualHex(hmacHex(key, input.time), input.signature) && u !== undefined;

    if (!ok) {
      const next: repo.AttemptRow = a ?? { account: lockKey, day: today(), fails: 0, stage: 0, locked_until: null };
      next.day = today();
      next.fails += 1;
      let answer: AppError;
      if (next.stage === 0 && next.fails >= MAX_FAILS) {
        next.stage = 1;
        next.locked_until = new Date(Date.now() + LOCK_SHORT_MS);
        answer = new AppError(Status.forbidden, 'locked10');
      } else if (next.stage >= 1) {
        next.stage = 2;
        next.locked_until = new Date(Date.now() + LOCK_DAY_MS);
        answer = new AppError(Status.forbidden, 'lockedDay');
      } else {
        answer = new AppError(
          Status.unauthorized,
          'wrongPassword',
          { remaining: MAX_FAILS - next.fails },
          { remaining: MAX_FAILS - next.fails },
        );
      }
      await repo.saveAttempts(db, next);
      await writeAudit(db, {
        action: next.locked_until ? 'login.locked' : 'login.failure',
        userId: u?.id ?? null,
        account,
        ip: meta.ip,
        detail: { fails: next.fails, stage: next.stage },
      });
      throw answer;
    }

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
    if (a) await repo.clearAttempts(db, lockKey);

    const others = await repo.activeSessionIds(db, u.id, this.ctx.config.sessionIdleMs);
    if (others.length > 0) {
      if (input.flag !== 1) {
        const ticket = newToken();
        await repo.saveTicket(db, sha256hex(ticket), u.id, TICKET_TTL_MS);
        await writeAudit(db, { action: 'login.elsewhere', userId: u.id, account: u.account, ip: meta.ip });
        return { status: Status.warnOther, key: 'loginElsewhere', data: { elsewhere: true, ticket } };
      }
      const ended = await endSessions(db, { sessionIds: others }, 'kicked');
      this.ctx.hub.endSessions(ended, 'logged in elsewhere');
      await writeAudit(db, {
        action: 'login.kicked',
        userId: u.id,
        account: u.account,
        ip: meta.ip,
        detail: { sessions: ended.length },
      });
    }

    const token = newToken();
    await repo.createSession(db, { tokenHash: sha256hex(token), userId: u.id, ip: meta.ip, userAgent: meta.userAgent });
    await writeAudit(db, { action: 'login.success', userId: u.id, account: u.account, ip: meta.ip });
    return { data: { token, platformType: this.ctx.config.platformType, account: u.account } };
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
