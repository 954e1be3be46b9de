import { useState, type MouseEvent, type ReactElement } from 'react';
import { Dropdown, Tabs } from 'antd';
import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, ReloadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { VisitedView, VisitedViewsApi } from './visited-views.ts';

/**
 * Tab bar of visited pages (spec §2): click to switch, × to close, right-click for refresh, close,
 * close others, close all. Pinned (affix) tabs have no × and survive "close all".
 * Test hooks: [data-testid="tags-view"]; a tab: .ant-tabs-tab[data-node-key="<path>"] or
 * [data-testid="tab-<path>"]; its close button: .ant-tabs-tab-remove; context menu items
 * [data-testid="tab-menu-refresh" | "tab-menu-close" | "tab-menu-close-others" | "tab-menu-close-all"].
 */
export function TagsView({ api, activePath }: { api: VisitedViewsApi; activePath: string | null }): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [menuPath, setMenuPath] = useState<string | null>(null);
  const open = (v: VisitedView): void => {
    void navigate(v.path + v.search);
  };
  const goToLast = (remaining: VisitedView[]): void => {
    const last = remaining.at(-1);
    if (last) open(last);
    else void navigate('/');
  };

  const close = (path: string): void => {
    const remaining = api.close(path);
    if (path === activePath) goToLast(remaining);
  };
  const closeOthers = (path: string): void => {
    const remaining = api.closeOthers(path);
    if (path !== activePath) {
      const v = remaining.find((x) => x.path === path);
      if (v) open(v);
    }
  };
  const closeAll = (): void => {
    const remaining = api.closeAll();
    if (!remaining.some((v) => v.path === activePath)) goToLast(remaining);
  };

  const target = api.views.find((v) => v.path === (menuPath ?? activePath));
  const onContextMenu = (e: MouseEvent<HTMLDivElement>): void => {
    const key = (e.target as HTMLElement).closest('.ant-tabs-tab')?.getAttribute('data-node-key');
    setMenuPath(key ?? activePath);
  };

  return (
    <Dropdown
      trigger={['contextMenu']}
      menu={{
        items: [
          {
            key: 'refresh',
            icon: <ReloadOutlined />,
            label: <span data-testid="tab-menu-refresh">{t('common:tabs.refresh')}</span>,
            disabled: !target,
          },
          {
            key: 'close',
            icon: <CloseOutlined />,
            label: <span data-testid="tab-menu-close">{t('common:tabs.close')}</span>,
            disabled: !target || target.affix,
          },
          {
            key: 'closeOthers',
            icon: <ColumnWidthOutlined />,
            label: <span data-testid="tab-menu-close-others">{t('common:tabs.closeOthers')}</span>,
            disabled: !target,
          },
          {
            key: 'closeAll',
            icon: <CloseCircleOutlined />,
            label: <span data-testid="tab-menu-close-all">{t('common:tabs.closeAll')}</span>,
          },
        ],
        onClick: ({ key }) => {
          if (key === 'closeAll') return closeAll();
          if (!target) return;
          if (key === 'refresh') {
            api.refresh(target.path);
            if (target.path !== activePath) open(target);
          } else if (key === 'close') close(target.path);
          else if (key === 'closeOthers') closeOthers(target.path);
        },
      }}
    >
      <div className="gs-tags" data-testid="tags-view" onContextMenuCapture={onContextMenu}>
        <Tabs
          type="editable-card"
          hideAdd
          size="small"
          activeKey={activePath ?? ''}
          onChange={(key) => {
            const v = api.views.find((x) => x.path === key);
            if (v) open(v);
          }}
          onEdit={(key, action) => {
            if (action === 'remove' && typeof key === 'string') close(key);
          }}
          items={api.views.map((v) => ({
            key: v.path,
            closable: !v.affix,
            label: (
              <span data-testid={`tab-${v.path}`} title={v.path}>
                {v.titleKey ? t(v.titleKey) : t('common:tabs.noName')}
              </span>
            ),
          }))}
        />
      </div>
    </Dropdown>
  );
}
