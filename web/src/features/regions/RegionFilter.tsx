import { useState, type CSSProperties, type ReactElement } from 'react';
import type { RegionNode } from '@geosentry/contract';
import { RegionCascader } from './RegionCascader.tsx';
import { useRegionTree } from './regionsApi.ts';

/** The codes from the root down to a region, or undefined when it is not in the tree. */
function pathTo(nodes: readonly RegionNode[], code: string): string[] | undefined {
  for (const n of nodes) {
    if (n.code === code) return [n.code];
    const below = n.children ? pathTo(n.children, code) : undefined;
    if (below) return [n.code, ...below];
  }
  return undefined;
}

export interface RegionFilterProps {
  /** The region code a list is filtered by (kept in the list's URL): the region and every region below it. */
  value: string | undefined;
  onChange: (code: string | undefined) => void;
  placeholder: string;
  style?: CSSProperties;
  'data-testid'?: string;
}

/**
 * A list filter by administrative region: picks a region at any level (country, province, city, county); a code
 * from the address (a shared link, home's regional screening) shows as its path once the tree is there.
 */
export function RegionFilter({ value, onChange, placeholder, style, ...rest }: RegionFilterProps): ReactElement {
  const tree = useRegionTree(!!value);
  const [picked, setPicked] = useState<string[] | undefined>(undefined);
  const shown = !value
    ? undefined
    : picked?.[picked.length - 1] === value
      ? picked
      : tree.data
        ? pathTo(tree.data, value)
        : undefined;
  return (
    <RegionCascader
      data-testid={rest['data-testid']}
      style={style ?? { width: 220 }}
      changeOnSelect
      placeholder={placeholder}
      value={shown}
      onChange={(v) => {
        setPicked(v);
        onChange(v?.[v.length - 1]);
      }}
    />
  );
}
