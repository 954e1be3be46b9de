import { Select } from 'antd';

interface BoundFilterProps {
  /** true: only bound rows; false: only unbound; undefined: all. */
  value: boolean | undefined;
  onChange: (bound: boolean | undefined) => void;
  /** Translated texts: the placeholder ("all") and the two choices. */
  labels: { placeholder: string; bound: string; unbound: string };
  width?: number;
  'data-testid'?: string;
}

/** A list's "bound or not" filter (catalogue rows bound to an owner or a site), clearable (cleared = all). */
export function BoundFilter({ value, onChange, labels, width = 180, ...rest }: BoundFilterProps) {
  return (
    <Select<'bound' | 'unbound'>
      allowClear
      data-testid={rest['data-testid']}
      style={{ width }}
      placeholder={labels.placeholder}
      value={value === undefined ? undefined : value ? 'bound' : 'unbound'}
      options={[
        { value: 'bound', label: labels.bound },
        { value: 'unbound', label: labels.unbound },
      ]}
      onChange={(v) => onChange(v === undefined ? undefined : v === 'bound')}
    />
  );
}
