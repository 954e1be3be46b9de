import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { Menu, type MenuProps } from 'antd';
import { AppstoreOutlined, FileOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isScreen, type RouteNode } from '../route-tree.ts';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: RouteNode[], t: (k: string) => string, depth: number): Item[] {
  const out: Item[] = [];
  for (const n of nodes) {
    if (n.route.hidden) continue;
    const visibleChildren = n.children.filter((c) => !c.route.hidden);
    const label = (
      <span data-testid={`menu-${n.fullPath}`} data-path={n.fullPath}>
        {n.route.titleKey ? t(n.route.titleKey) : t('common:tabs.noName')}
      </span>
    );
    const icon =
      n.route.icon ?? (depth === 0 ? visibleChildren.length > 0 ? <AppstoreOutlined /> : <FileOutlined /> : undefined);
    if (visibleChildren.length > 0) {
      out.push({ key: n.fullPath, icon, label, children: toItems(visibleChildren, t, depth + 1) });
    } else if (isScreen(n) && !/[:*]/.test(n.fullPath)) {
      out.push({ key: n.fullPath, icon, label });
    }
  }
  return out;
}

/**
 * The collapsible side menu built from the permitted routes (spec §2).
 * Test hooks: [data-testid="side-menu"], items [data-testid="menu-<full path>"], e.g. menu-/system/user.
 */
export function SideMenu({
  nodes,
  active,
  collapsed,
}: {
  nodes: RouteNode[];
  active: RouteNode | null;
  collapsed: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const items = useMemo(() => toItems(nodes, t, 0), [nodes, t]);
  // The selected item is the active screen, or its nearest ancestor shown in the menu.
  const selected = [...(active?.chain ?? [])].reverse().find((n) => !n.chain.some((c) => c.route.hidden));
  const ancestors = useMemo(() => (active?.chain ?? []).slice(0, -1).map((n) => n.fullPath), [active]);
  const [openKeys, setOpenKeys] = useState<string[]>(ancestors);
  useEffect(() => {
    // Opening a screen opens its group (keeping groups the user opened).
    setOpenKeys((keys) => (ancestors.every((k) => keys.includes(k)) ? keys : [...new Set([...keys, ...ancestors])]));
  }, [ancestors]);

  return (
    <Menu
      data-testid="side-menu"
      className="gs-side-menu"
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={selected ? [selected.fullPath] : []}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => navigate(key)}
    />
  );
}
