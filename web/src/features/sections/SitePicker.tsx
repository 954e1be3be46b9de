import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import {
  monitorViewsRoutes,
  permissionCodes,
  type PlatformRow,
  type PlatformType,
  type ViewSite,
} from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { hasPermission, useSession } from '../../shared/session.ts';
import { KIND_SCREENS } from '../platforms/index.ts';
import { fetchPlatformChoices } from '../platforms/index.ts';

export interface SiteChoice {
  platformId: number;
  name: string;
  type: PlatformType;
}

export interface SitePickerProps {
  id?: string;
  kinds: readonly PlatformType[];
  value?: number | undefined;
  onChange?: (platformId: number | undefined, site: SiteChoice | undefined) => void;
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
  disabled?: boolean;
  'data-testid'?: string;
}

const roleOf = (kind: PlatformType) => KIND_SCREENS.find((s) => s.kind === kind)?.role ?? '';
/** Holding any of these keys allows the one call answering the sites of the caller's data scope. */
const SITE_LIST_CODES = permissionCodes(monitorViewsRoutes.platforms.permission);
const PER_KIND = 50;

/** The sites of the caller's data scope of the given kinds whose name holds the keyword, first 50 per kind. */
async function fetchScopeChoices(kinds: readonly PlatformType[], keyword: string): Promise<SiteChoice[]> {
  // One call: of the one kind asked for, else every kind of the scope.
  const list = await call(monitorViewsRoutes.platforms, kinds.length === 1 ? { type: kinds[0] } : {}, {
    keepEarlier: true,
    silent: true,
  }).catch(() => [] as ViewSite[]);
  const word = keyword.toLowerCase();
  const found = list
    .filter((s) => kinds.includes(s.type) && (!word || s.name.toLowerCase().includes(word)))
    .sort((a, b) => a.name.localeCompare(b.name));
  return kinds.flatMap((type) =>
    found
      .filter((s) => s.type === type)
      .slice(0, PER_KIND)
      .map((s) => ({ platformId: s.platformId, name: s.name, type: s.type })),
  );
}

/**
 * Picks a site of the given kinds by name (first 50 per kind), grouped by kind: the sites of the caller's data
 * scope when the caller holds a key of a screen with a site picker, else each kind's list the user may read
 * (searched on the server; kinds the user may not list are left out).
 */
export function SitePicker({
  id,
  kinds,
  value,
  onChange,
  placeholder,
  allowClear,
  style,
  disabled,
  ...rest
}: SitePickerProps) {
  const { t } = useTranslation('sections');
  const session = useSession();
  const { permissions } = session;
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<SiteChoice | undefined>(undefined);
  const scope = SITE_LIST_CODES.some((code) => hasPermission(code, session));
  const allowed = useMemo(
    () => kinds.filter((k) => scope || permissions === null || permissions.includes(roleOf(k))),
    [kinds, permissions, scope],
  );
  const sites = useQuery({
    queryKey: ['platforms', 'choices', scope, allowed, keyword],
    queryFn: async (): Promise<SiteChoice[]> => {
      if (scope) return fetchScopeChoices(allowed, keyword);
      const lists = await Promise.all(
        allowed.map((k) => fetchPlatformChoices(k, keyword).catch(() => [] as PlatformRow[])),
      );
      return lists.flat();
    },
  });

  const options = useMemo(() => {
    const groups = allowed.map((k) => ({
      label: t(`kinds.${k}`),
      title: t(`kinds.${k}`),
      options: (sites.data ?? []).filter((s) => s.type === k).map((s) => ({ value: s.platformId, label: s.name })),
    }));
    // Keep the chosen site's label when a search no longer lists it.
    const chosen = value !== undefined && picked?.platformId === value ? picked : undefined;
    if (chosen && !(sites.data ?? []).some((s) => s.platformId === value)) {
      const g = groups.find((x) => x.title === t(`kinds.${chosen.type}`));
      g?.options.unshift({ value: chosen.platformId, label: chosen.name });
    }
    return groups.filter((g) => g.options.length > 0);
  }, [allowed, sites.data, t, value, picked]);

  return (
    <Select<number>
      id={id}
      data-testid={rest['data-testid']}
      style={style}
      disabled={disabled}
      allowClear={allowClear}
      placeholder={placeholder ?? t('filters.site')}
      loading={sites.isFetching}
      value={value}
      showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim()) }}
      onChange={(v) => {
        const s = (sites.data ?? []).find((x) => x.platformId === v);
        const choice = s ? { platformId: s.platformId, name: s.name, type: s.type } : undefined;
        setPicked(choice);
        setKeyword('');
        onChange?.(v ?? undefined, choice);
      }}
      options={options}
      notFoundContent={sites.isFetching ? undefined : t('filters.noSites')}
    />
  );
}
