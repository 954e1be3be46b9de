/**
 * Stands in for antd's table column filter menu (antd/es/table/hooks/useFilter/FilterDropdown.js) in the build
 * (web/vite.config.ts, plugin withoutColumnFilters). The console filters lists on the server, from ServerTable's
 * filter bar: no column declares `filters` or `filterDropdown`, and the menu's code (a Tree, Checkbox, Radio, Menu,
 * Dropdown and search box: about 20 KiB compressed) came with every table. A column that declares filters fails
 * loudly here instead of silently showing no menu.
 */
interface Filter {
  value: unknown;
  children?: Filter[];
}

/** As antd's: the values of a filter tree, flattened. */
export function flattenKeys(filters?: Filter[]): unknown[] {
  return (filters ?? []).flatMap((f) => [f.value, ...flattenKeys(f.children)]);
}

export default function FilterDropdown(): never {
  throw new Error(
    "Column filter menus are not in the build (web/vite.config.ts, withoutColumnFilters): filter on the server with ServerTable's filter bar.",
  );
}
