import {
  sessionRoutes,
  signLogin,
  type CaptchaImage,
  type Envelope,
  type LoginElsewhere,
  type LoginResult,
  type UpdateUserInfoResult,
  type UserInfo,
} from '@geosentry/contract';
import { call, requestEnvelope } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';
import { browserTimeZone } from '../../shared/time.ts';

export const USER_INFO_KEY = ['session', 'userInfo'] as const;

export function fetchCaptcha(): Promise<CaptchaImage> {
  return call(sessionRoutes.captcha, {}, { silent: true });
}

export interface LoginInput {
  account: string;
  password: string;
  captchaId?: string;
  captcha?: string;
  /** 1 ends the other session of the account (after the "logged in elsewhere" answer). */
  flag?: 0 | 1;
  ticket?: string;
}

/**
 * Sends the login with a fresh signature (signatures are single use) and returns the whole
 * envelope: status 0 carries the token, status 4 the "logged in elsewhere" ticket.
 */
export function login(
  input: LoginInput,
): Promise<Envelope<LoginResult | LoginElsewhere | { remaining?: number } | null>> {
  const { signature, time } = signLogin(input.password);
  return requestEnvelope(sessionRoutes.login.method, sessionRoutes.login.path, {
    account: input.account.trim(),
    signature,
    time,
    flag: input.flag ?? 0,
    captchaId: input.captchaId,
    captcha: input.captcha,
    ticket: input.ticket,
  });
}

/** The session (token) whose user already had the browser's zone saved, or tried: once per login. */
let zoneSavedFor: string | null = null;

/**
 * The signed-in user's info. A user without a time zone of their own gets this browser's, saved once after
 * the login (issue 14: times are computed and shown in the user's zone; the browser's is the first guess).
 */
export async function fetchUserInfo(): Promise<UserInfo> {
  const info = await call(sessionRoutes.getUserInfo, {}, { keepEarlier: true });
  const token = getToken();
  if (info.user.timeZone || !token || zoneSavedFor === token) return info;
  zoneSavedFor = token;
  try {
    const saved = await updateUserInfo({ timeZone: browserTimeZone() }, true);
    return { ...info, user: { ...info.user, timeZone: saved.timeZone } };
  } catch {
    return info; // the browser's zone applies all the same; user info offers the setting
  }
}

/** Changes the signed-in user's own settings (the time zone: an IANA name). */
export function updateUserInfo(p: { timeZone: string }, silent = false): Promise<UpdateUserInfoResult> {
  return call(sessionRoutes.updateUserInfo, p, { silent, loading: !silent });
}

/** Ends this session on the server; never throws and never triggers the session-end handling (the caller leaves anyway). */
export async function logout(): Promise<void> {
  try {
    await requestEnvelope(sessionRoutes.logout.method, sessionRoutes.logout.path);
  } catch {
    /* offline: the local session is cleared all the same */
  }
}

/** Changes the signed-in user's password: the old one is proven by a fresh signature. */
export function changePassword(oldPassword: string, newPassword: string): Promise<unknown> {
  const { signature, time } = signLogin(oldPassword);
  return call(sessionRoutes.changePassword, { signature, time, newPassword }, { loading: true });
}
