import type { FormRule as Rule } from 'antd';
import { checkPassword, PASSWORD_MAX, PASSWORD_MIN, userAddBody, userFields } from '@geosentry/contract';

/** Translates a key with its namespace ('users:...'). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Client-side checks that follow the contract's own schemas, with translated messages. */
export function accountRules(t: Translate): Rule[] {
  return [
    { required: true, whitespace: true, message: t('users:validation.accountRequired') },
    {
      validator: (_r, v: string | undefined) =>
        !v || userAddBody.shape.account.safeParse(v).success
          ? Promise.resolve()
          : Promise.reject(new Error(t('users:validation.accountPattern'))),
    },
  ];
}

export function passwordRules(t: Translate, account: () => string | undefined): Rule[] {
  return [
    { required: true, message: t('users:validation.passwordRequired') },
    {
      validator: (_r, v: string | undefined) => {
        if (!v) return Promise.resolve();
        const problem = checkPassword(v, account());
        if (!problem) return Promise.resolve();
        const key = {
          tooShort: 'passwordTooShort',
          tooLong: 'passwordTooLong',
          common: 'passwordCommon',
          sameAsAccount: 'passwordSameAsAccount',
        }[problem];
        return Promise.reject(new Error(t(`users:validation.${key}`, { min: PASSWORD_MIN, max: PASSWORD_MAX })));
      },
    },
  ];
}

export function phoneRules(t: Translate): Rule[] {
  return [
    {
      validator: (_r, v: string | undefined) =>
        !v || userFields.phone.safeParse(v).success
          ? Promise.resolve()
          : Promise.reject(new Error(t('users:validation.phoneInvalid'))),
    },
  ];
}

export function emailRules(t: Translate): Rule[] {
  return [
    {
      validator: (_r, v: string | undefined) =>
        !v || userFields.email.safeParse(v).success
          ? Promise.resolve()
          : Promise.reject(new Error(t('users:validation.emailInvalid'))),
    },
  ];
}
