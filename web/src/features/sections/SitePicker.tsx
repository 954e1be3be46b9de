import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import type { PlatformType, SelectableSite } from '@geosentry/contract';
import { fetchSelectableSites, siteKeys } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';

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

const PER_KIND = 50;

/** The sites of the given kinds whose name holds the keyword, first 50 per kind. */
function choicesOf(list: readonly SelectableSite[], kinds: readonly PlatformType[], keyword: string): SiteChoice[] {
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
 * Picks a site of the given kinds by name (first 50 per kind), grouped by kind, among the sites of the caller's
 * data scope (one server call, shared with the other site pickers: shared/sites.ts).
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
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<SiteChoice | undefined>(undefined);
  const allowed = kinds;
  const all = useQuery({
    queryKey: siteKeys.all,
    queryFn: fetchSelectableSites,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const choices = useMemo(() => choicesOf(all.data ?? [], kinds, keyword), [all.data, kinds, keyword]);
  const sites = { data: choices, isFetching: all.isFetching };

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
