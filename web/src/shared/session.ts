import { useSyncExternalStore } from 'react';
import { SUPER_ADMIN_ROLE, type UserInfo } from '@geosentry/contract';
import { KEYS, SESSION_CHANGED_EVENT, clearSession, getToken, readJson } from './storage.ts';
import { setUserTimeZone } from './time.ts';

/** What the shell knows about the signed-in user, read from local storage (spec §3 Session state). */
export interface SessionSnapshot {
  token: string | null;
  userName: string | null;
  /** Permission codes (route role keys); null until the first getUserInfo answer is stored. */
  permissions: string[] | null;
  userInfo: UserInfo | null;
  platformType: string | null;
}

const listeners = new Set<() => void>();
let loggedOutOnPurpose = false;
let snapshot: SessionSnapshot = read();

function read(): SessionSnapshot {
  const userInfo = readJson<UserInfo>(KEYS.userInfo);
  // Times are computed and shown in the user's zone (issue 14), else the browser's.
  setUserTimeZone(userInfo?.user?.timeZone);
  return {
    token: getToken(),
    userName: localStorage.getItem(KEYS.userName),
    permissions: readJson<string[]>(KEYS.permissions),
    userInfo,
    platformType: localStorage.getItem(KEYS.platformType),
  };
}

/** Re-reads local storage and tells every subscriber (call after writing session keys). */
export function refreshSession(): void {
  snapshot = read();
  if (snapshot.token) loggedOutOnPurpose = false;
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

// Another browser tab logging in or out changes this tab's session too.
window.addEventListener('storage', (e) => {
  if (e.key === null || (Object.values(KEYS) as string[]).includes(e.key)) refreshSession();
});
window.addEventListener(SESSION_CHANGED_EVENT, () => refreshSession());

export function getSession(): SessionSnapshot {
  return snapshot;
}

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribe, getSession);
}

/** Stores what getUserInfo answered: permission list, user info (with role and titles), platform type. */
export function storeUserInfo(info: UserInfo): void {
  localStorage.setItem(KEYS.permissions, JSON.stringify(info.permissions));
  localStorage.setItem(KEYS.userInfo, JSON.stringify(info));
  if (info.platformType) localStorage.setItem(KEYS.platformType, info.platformType);
  // The console reads user info again at each start: an answer that leaves the session as it was does not
  // re-render every component that reads the session.
  if (JSON.stringify(read()) === JSON.stringify(snapshot)) {
    if (snapshot.token) loggedOutOnPurpose = false;
    return;
  }
  refreshSession();
}

/** Clears the stored session (keeps the language) and notifies the shell. */
export function endSessionLocally(): void {
  clearSession();
}

export function isLoggedIn(s: SessionSnapshot = snapshot): boolean {
  return Boolean(s.token && s.userName);
}

export function isSuperAdmin(s: SessionSnapshot = snapshot): boolean {
  return s.userInfo?.role.code === SUPER_ADMIN_ROLE;
}

/** True when the user holds the permission code; the super administrator holds every code (spec §6). */
export function hasPermission(code: string, s: SessionSnapshot = snapshot): boolean {
  if (isSuperAdmin(s)) return true;
  return s.permissions?.includes(code) ?? false;
}

/** The route rule of spec §2: no roles list shows to everyone; otherwise at least one listed role is needed. */
export function hasAnyRole(roles: readonly string[] | undefined, s: SessionSnapshot = snapshot): boolean {
  if (!roles || roles.length === 0) return true;
  if (isSuperAdmin(s)) return true;
  const held = s.permissions ?? [];
  return roles.some((r) => held.includes(r));
}

/** Hook form of hasPermission, re-rendering when the session changes. */
export function usePermission(code: string): boolean {
  return hasPermission(code, useSession());
}

/** Marks that the user logged out (so the guard sends them to a plain /login, without a way back). */
export function markLogout(): void {
  loggedOutOnPurpose = true;
}

/** True after markLogout() until the next login. */
export function loggedOutOnPurposeMark(): boolean {
  return loggedOutOnPurpose;
}

let welcome: string | null = null;
/** The login page leaves the greeting for the console to show (the login page itself has no message layer). */
export function announceWelcome(name: string): void {
  welcome = name;
}
/** The greeting left by the login page, once. */
export function takeWelcome(): string | null {
  const name = welcome;
  welcome = null;
  return name;
}
