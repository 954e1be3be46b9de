import i18next, { type i18n as I18n } from 'i18next';
import { SUPER_ADMIN_ROLE, USER_ROLE } from '@geosentry/contract';

/**
 * Labels, never codes (issue 16): every enumerated value the server stores (a type, a kind, a status, a level, an
 * audit field) is shown by its translated label.
 *
 * A catalogue is an i18n key prefix with its namespace, e.g. 'platforms:subTypes' (labels at
 * platforms:subTypes.<code>). The first catalogue that knows the code gives the label; a code none knows (free text
 * someone typed, a value newer than the catalogues) is shown as it is. Codes may hold '.' or ':' (audit actions,
 * permission codes): they are looked up as one key, not split.
 */
export function catalogueLabel(code: string | number | null | undefined, ...catalogues: string[]): string {
  return labelIn(i18next, code, catalogues);
}

/** catalogueLabel with a given i18next instance (tests). */
export function labelIn(i18n: I18n, code: string | number | null | undefined, catalogues: readonly string[]): string {
  if (code === null || code === undefined || code === '') return '';
  const value = String(code);
  for (const catalogue of catalogues) {
    const at = catalogue.indexOf(':');
    const ns = at < 0 ? undefined : catalogue.slice(0, at);
    const prefix = at < 0 ? catalogue : catalogue.slice(at + 1);
    // The prefix is nested with '.', the code is one key under it.
    const key = [...prefix.split('.').filter(Boolean), value];
    const bundle = ns ? i18n.getResourceBundle(i18n.language, ns) : undefined;
    const found = lookup(bundle, key);
    if (typeof found === 'string') return found;
  }
  return value;
}

function lookup(bundle: unknown, key: readonly string[]): unknown {
  let at: unknown = bundle;
  for (const part of key) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** The names the built-in roles are created with (server/src/platform/seed.ts), by their stable code. */
const BUILT_IN_ROLE_NAMES: Record<string, string> = {
  [SUPER_ADMIN_ROLE]: 'Super Administrator',
  [USER_ROLE]: 'User',
};

/**
 * The name of a role as shown: a built-in role (found by its stable code) that still has the name it was created
 * with is shown in the user's language (roles:builtIn.<code>); a role someone created or renamed keeps its name.
 */
export function roleLabel(role: { code?: string | null; name: string }): string {
  return roleLabelIn(i18next, role);
}

/** roleLabel with a given i18next instance (tests). */
export function roleLabelIn(i18n: I18n, role: { code?: string | null; name: string }): string {
  const code = role.code ?? '';
  if (!(code in BUILT_IN_ROLE_NAMES) || role.name !== BUILT_IN_ROLE_NAMES[code]) return role.name;
  const label = labelIn(i18n, code, ['roles:builtIn']);
  return label === code ? role.name : label;
}
