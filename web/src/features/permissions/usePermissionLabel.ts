import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The translation key of a catalogue code: 'permissions:codes.<code with ':' replaced by '_'>'. */
export const permissionCodeKey = (code: string): string => `codes.${code.replace(/:/g, '_')}`;

/**
 * The label of a permission: the translated catalogue name when the code is a known catalogue code,
 * otherwise the stored name.
 */
export function usePermissionLabel(): (p: { code: string; name: string }) => string {
  const { t, i18n } = useTranslation('permissions');
  return useCallback(
    (p: { code: string; name: string }) => {
      const key = permissionCodeKey(p.code);
      return i18n.exists(key, { ns: 'permissions' }) ? t(key) : p.name;
    },
    [t, i18n],
  );
}
