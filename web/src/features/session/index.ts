/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
import { lazy } from 'react';

export { fetchUserInfo, logout, USER_INFO_KEY } from './api.ts';

/** The sign-in and user-information screens, loaded with their route. */
export const LoginPage = lazy(() => import('./LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
export const UserInfoPage = lazy(() => import('./UserInfoPage.tsx').then((m) => ({ default: m.UserInfoPage })));
