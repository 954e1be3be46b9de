import { Cascader } from 'antd';
import type { RegionNode } from '@geosentry/contract';
import { useRegionTree } from './regionsApi.ts';

export interface RegionCascaderProps {
  id?: string;
  value?: string[];
  onChange?: (value: string[] | undefined) => void;
  placeholder?: string;
  /** Allow stopping above the leaves (filters: a region and everything below it). */
  changeOnSelect?: boolean;
  style?: React.CSSProperties;
  allowClear?: boolean;
  'data-testid'?: string;
}

const FIELD_NAMES = { label: 'name', value: 'code', children: 'children' } as const;

/** Picks an administrative region from the tree (country > province > city > county); the value is the code path. */
export function RegionCascader({
  id,
  value,
  onChange,
  placeholder,
  changeOnSelect,
  style,
  allowClear = true,
  ...rest
}: RegionCascaderProps) {
  const tree = useRegionTree();
  return (
    <Cascader<RegionNode>
      id={id}
      data-testid={rest['data-testid']}
      style={style}
      allowClear={allowClear}
      loading={tree.isLoading}
      options={tree.data ?? []}
      fieldNames={FIELD_NAMES}
      value={value && value.length ? value : undefined}
      onChange={(v) => onChange?.(v && v.length ? (v as string[]) : undefined)}
      changeOnSelect={changeOnSelect}
      placeholder={placeholder}
      showSearch={{ filter: (input, path) => path.some((n) => n.name.toLowerCase().includes(input.toLowerCase())) }}
    />
  );
}
