import type { ReactElement } from 'react';
import { Card } from 'antd';
import { FileOutlined, RightOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePermittedRoutes } from '../../app/route-context.ts';
import { flattenNodes, isScreen } from '../../app/route-tree.ts';

/**
 * Shortcuts to every screen the user may open (from the permitted route tree), plus their account.
 * Test hooks: [data-testid="screen-link-<full path>"].
 */
export function ScreenLinks(): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const nodes = usePermittedRoutes();
  const screens = flattenNodes(nodes).filter(
    (n) => isScreen(n) && n.fullPath !== '/home' && !/[:*]/.test(n.fullPath) && !n.chain.some((c) => c.route.hidden),
  );
  const links = [
    ...screens.map((n) => ({
      path: n.fullPath,
      title: t(n.route.titleKey),
      group: n.chain.length > 1 ? t(n.chain[0]!.route.titleKey) : null,
      icon: n.route.icon ?? [...n.chain].reverse().find((c) => c.route.icon)?.route.icon ?? <FileOutlined />,
    })),
    { path: '/userinfo', title: t('session:userInfo.title'), group: null, icon: <UserOutlined /> },
  ];

  return (
    <Card title={t('home:screens.title')} className="gs-home-card">
      {screens.length === 0 ? (
        <p className="gs-muted" data-testid="screen-links-none">
          {t('home:screens.none')}
        </p>
      ) : null}
      <div className="gs-link-grid">
        {links.map((l) => (
          <a
            key={l.path}
            href={`#${l.path}`}
            className="gs-link"
            data-testid={`screen-link-${l.path}`}
            onClick={(e) => {
              e.preventDefault();
              void navigate(l.path);
            }}
          >
            <span className="gs-link-icon">{l.icon}</span>
            <span className="gs-link-text">
              <span className="gs-link-title">{l.title}</span>
              {l.group ? <span className="gs-link-group">{l.group}</span> : null}
            </span>
            <RightOutlined className="gs-link-arrow" />
          </a>
        ))}
      </div>
    </Card>
  );
}
