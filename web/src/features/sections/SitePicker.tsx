import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import type { PlatformRow, PlatformType } from '@geosentry/contract';
import { useSession } from '../../shared/session.ts';
import { KIND_SCREENS } from '../platforms/kinds.ts';
import { fetchPlatformChoices } from '../platforms/platformsApi.ts';

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

/**
 * Picks a site of the given kinds, searching by name on the server (first 50 per kind), grouped by kind.
 * Kinds the user may not list are left out.
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
  const { permissions } = useSession();
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<SiteChoice | undefined>(undefined);
  const allowed = useMemo(
    () => kinds.filter((k) => permissions === null || permissions.includes(roleOf(k))),
    [kinds, permissions],
  );
  const sites = useQuery({
    queryKey: ['platforms', 'choices', allowed, keyword],
    queryFn: async () => {
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
