import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The label of an alert value type ('offline' included) in the console's language. */
export function useValueTypeText(): (type: string) => string {
  const { t } = useTranslation('alerts');
  return useCallback((type: string) => t(`types.${type}`, { defaultValue: type }), [t]);
}
