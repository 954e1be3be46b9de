import { Select } from 'antd';

interface SiteFilterProps {
  /** The sites to choose from (the caller's, already scoped by the server). */
  sites: readonly { platformId: number; name: string }[];
  value: number | undefined;
  onChange: (platformId: number | undefined) => void;
  /** The translated "all sites" text shown while nothing is chosen. */
  placeholder: string;
  loading?: boolean;
  'data-testid'?: string;
}

/** A list's site filter: searchable by name, clearable (cleared = all sites). */
export function SiteFilter({ sites, value, onChange, placeholder, loading, ...rest }: SiteFilterProps) {
  return (
    <Select<number>
      data-testid={rest['data-testid']}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: 200 }}
      placeholder={placeholder}
      loading={loading}
      value={value}
      options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
      onChange={(v) => onChange(v ?? undefined)}
    />
  );
}
