import { z } from 'zod';
import { zInt, zOptText } from '../api/zod.ts';

/** POST /api/v2/manage/user/login (spec §7, architecture §4). */
export const loginBody = z.object({
  /** Empty account or signature answers 'Please enter account and password'. */
  account: z.string().trim().max(64).optional().default(''),
  /** hex(HMAC-SHA256(md5hex(sha1hex(password)), time)) */
  signature: z.string().trim().max(128).optional().default(''),
  /** The client's clock in epoch milliseconds, as a decimal string. */
  time: z.string().trim().max(20).optional().default(''),
  /** 1 ends another active session of this account; 0 (default) answers "logged in elsewhere". */
  flag: zInt().pipe(z.number().min(0).max(1)).optional().default(0),
  /** The id of the identifying-code image and the code the user typed. Not needed when CAPTCHA=off. */
  captchaId: zOptText(64),
  captcha: zOptText(16),
  /** A one-time ticket returned by a "logged in elsewhere" answer; stands in for the captcha on the retry. */
  ticket: zOptText(128),
});
export type LoginBody = z.infer<typeof loginBody>;

/** The data of a successful login (status 0): the caller's own new token. */
export const loginResultSchema = z.object({
  token: z.string(),
  platformType: z.string(),
  account: z.string(),
  /** The user's own IANA time zone (null: none set; the console then sets the browser's). */
  timeZone: z.string().nullable(),
  /** The server's TIME_ZONE. */
  systemTimeZone: z.string(),
});
export type LoginResult = z.output<typeof loginResultSchema>;

/** Data of the "logged in elsewhere" warning: a ticket to retry with flag=1 without a new captcha. */
export interface LoginElsewhere {
  elsewhere: true;
  ticket: string;
}

export const captchaImageSchema = z.object({
  captchaId: z.string(),
  /** A data: URL of a PNG image (180 x 60, drawn on the server; the answer is only in its pixels). */
  image: z.string(),
  expiresInSeconds: z.number(),
});
export type CaptchaImage = z.output<typeof captchaImageSchema>;

export const publicConfigSchema = z.object({
  systemTitle: z.string(),
  projectTitle: z.string(),
  systemIcon: z.string().nullable(),
  copyright: z.string(),
  supportPhone: z.string(),
  captcha: z.boolean(),
  platformType: z.string(),
  /** The app download link the top bar's QR code carries (APP_DOWNLOAD_URL); empty: the console's own address. */
  appDownloadUrl: z.string(),
});
export type PublicConfig = z.output<typeof publicConfigSchema>;

export const userInfoSchema = z.object({
  user: z.object({
    id: z.number().int(),
    account: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    area: z.string().nullable(),
    scopeAll: z.boolean(),
    platformIds: z.array(z.number().int()),
    /** The user's own IANA time zone (null: none set; the console sets the browser's at the first login). */
    timeZone: z.string().nullable(),
  }),
  role: z.object({ id: z.number().int(), code: z.string(), name: z.string(), roleFileId: z.string().nullable() }),
  permissions: z.array(z.string()),
  platformType: z.string(),
  systemTitle: z.string(),
  projectTitle: z.string(),
  systemIcon: z.string().nullable(),
  roleFileId: z.string().nullable(),
  /** The server's TIME_ZONE: the calendar of a user without a zone of their own. */
  systemTimeZone: z.string(),
});
export type UserInfo = z.output<typeof userInfoSchema>;

/** POST updateUserInfo: the signed-in user's own settings. timeZone: an IANA name; empty clears it (null). */
export const updateUserInfoBody = z.object({
  timeZone: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().max(64).nullable()),
});
export const updateUserInfoResultSchema = z.object({ timeZone: z.string().nullable() });
export type UpdateUserInfoResult = z.output<typeof updateUserInfoResultSchema>;

/** Password change: the old password proven by a fresh signature, the new one in clear over TLS. */
export const changePasswordBody = z.object({
  signature: z.string().regex(/^[0-9a-fA-F]{64}$/),
  time: z.string().regex(/^\d{10,16}$/),
  newPassword: z.string().min(1).max(256),
});
