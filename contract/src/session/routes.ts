import { z } from 'zod';
import { LOGIN, PUBLIC, routeTable } from '../api/routes.ts';
import {
  captchaImageSchema,
  changePasswordBody,
  loginBody,
  loginResultSchema,
  publicConfigSchema,
  updateUserInfoBody,
  updateUserInfoResultSchema,
  userInfoSchema,
} from './schemas.ts';

const tags = ['session'];
export const sessionRoutes = routeTable({
  publicConfig: {
    method: 'GET',
    path: '/api/v2/manage/system/getPublicConfig',
    permission: PUBLIC,
    summary: 'Titles, footer and login options shown before login',
    tags,
    response: publicConfigSchema,
  },
  captcha: {
    method: 'GET',
    path: '/api/v2/manage/user/captcha',
    permission: PUBLIC,
    summary: 'Issue an identifying-code image (single use, expires)',
    tags,
    response: captchaImageSchema,
  },
  login: {
    method: 'POST',
    path: '/api/v2/manage/user/login',
    permission: PUBLIC,
    summary: 'Log in with account, signature, time, flag and captcha',
    tags,
    body: loginBody,
    // The data of the success answer; the "logged in elsewhere" warning (status 4) carries a LoginElsewhere.
    response: loginResultSchema,
  },
  getUserInfo: {
    method: 'GET',
    path: '/api/v2/manage/user/getUserInfo',
    permission: LOGIN,
    summary: 'The signed-in user, role, permission codes and titles',
    tags,
    response: userInfoSchema,
  },
  updateUserInfo: {
    method: 'POST',
    path: '/api/v2/manage/user/updateUserInfo',
    permission: LOGIN,
    summary: 'Change own user settings: the time zone (IANA name; empty: none, the system zone applies)',
    tags,
    body: updateUserInfoBody,
    response: updateUserInfoResultSchema,
  },
  logout: {
    method: 'GET',
    path: '/api/v2/manage/user/logout',
    permission: LOGIN,
    summary: 'End this session',
    tags,
    response: z.null(),
  },
  changePassword: {
    method: 'POST',
    path: '/api/v2/manage/user/updatePassword',
    permission: LOGIN,
    summary: 'Change own password; every session of the account ends',
    tags,
    body: changePasswordBody,
    response: z.null(),
  },
});
