/** Fired on window whenever this module writes or clears the session keys (the session store listens). */
export const SESSION_CHANGED_EVENT = 'geosentry:session';

function changed(): void {
  window.dispatchEvent(new Event(SESSION_CHANGED_EVENT));
}

/** What the browser keeps (spec §3 Session state): token, user name, permission list, user info, platform type, language. */
export const KEYS = {
  token: 'token',
  userName: 'userName',
  permissions: 'permissionList',
  userInfo: 'userInfo',
  platformType: 'platformType',
} as const;

export function getToken(): string | null {
  return localStorage.getItem(KEYS.token);
}

export function saveSession(token: string, userName: string, platformType: string): void {
  localStorage.setItem(KEYS.token, token);
  localStorage.setItem(KEYS.userName, userName.trim());
  localStorage.setItem(KEYS.platformType, platformType);
  // Token cookie: 1/12 day (spec §9).
  document.cookie = `token=${encodeURIComponent(token)}; max-age=${2 * 3600}; path=/; samesite=strict`;
  changed();
}

/** Clears all local storage except the language choice, and the token cookie. */
export function clearSession(): void {
  const lang = localStorage.getItem('language');
  localStorage.clear();
  if (lang) localStorage.setItem('language', lang);
  document.cookie = 'token=; max-age=0; path=/';
  changed();
}

export function readJson<T>(key: string): T | null {
  try {
    const v = localStorage.getItem(key);
    return v ? (JSON.parse(v) as T) : null;
  } catch {
    return null;
  }
}

export function getCookie(name: string): string | null {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/** Sets a cookie for 365 days (spec §9 default). */
export function setCookie(name: string, value: string, days = 365): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${days * 86400}; path=/; samesite=lax`;
}
