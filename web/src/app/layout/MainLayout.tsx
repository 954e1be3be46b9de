import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Alert, Breadcrumb, Button, Layout, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { appRoutes } from '../routes.tsx';
import {
  buildNodes,
  filterRoutes,
  findNode,
  firstScreen,
  flattenNodes,
  groupTarget,
  isScreen,
  type RouteNode,
} from '../route-tree.ts';
import { PermittedRoutesContext } from '../route-context.ts';
import { hasPermission, storeUserInfo, useSession } from '../../shared/session.ts';
import { getCookie, setCookie } from '../../shared/storage.ts';
import { socketSupported, startSessionSocket, stopSessionSocket } from '../../shared/socket.ts';
import { useBranding } from '../../shared/public-config.ts';
import { LanguageSwitch } from '../../shared/ui/LanguageSwitch.tsx';
import { PageFooter } from '../../shared/ui/PageFooter.tsx';
import { fetchUserInfo, USER_INFO_KEY } from '../../features/session/index.ts';
import { useVisitedViews, type VisitedView } from './visited-views.ts';
import { ViewHost } from './ViewHost.tsx';
import { BackTop } from './BackTop.tsx';
import { SideMenu } from './SideMenu.tsx';
import { TagsView } from './TagsView.tsx';
import { UserMenu } from './UserMenu.tsx';
import { AppDownload } from './AppDownload.tsx';
import { BigScreenLink } from './BigScreenLink.tsx';
import { RoleImages } from './RoleImages.tsx';
import { AlertPopup } from '../../features/alerts/index.ts';
import { ThreeDLink } from '../../features/threeD/index.ts';

const SIDEBAR_COOKIE = 'sidebarStatus';

/** Where a path goes when it is not itself a screen: '/' to /home (or the first permitted screen), a group to its first child, anything else to /404. */
function resolveRedirect(pathname: string, nodes: RouteNode[], node: RouteNode | null): string | null {
  if (pathname === '/' || pathname === '') {
    const home = findNode(nodes, '/home');
    return home && isScreen(home) ? '/home' : (firstScreen(nodes)?.fullPath ?? '/404');
  }
  if (!node) return '/404';
  if (!isScreen(node)) return groupTarget(node) ?? '/404';
  return null;
}

/**
 * The main layout (spec §2): side menu from the permitted routes, top bar with breadcrumb and
 * actions, tab bar of visited pages, cached views, footer, back-to-top.
 */
export function MainLayout(): ReactElement {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const branding = useBranding();
  const mainRef = useRef<HTMLDivElement>(null);

  // Permissions are refreshed from the server once per page load (they may have changed since login).
  const userInfoQuery = useQuery({ queryKey: USER_INFO_KEY, queryFn: fetchUserInfo, staleTime: 60_000, retry: false });
  useEffect(() => {
    if (userInfoQuery.data) storeUserInfo(userInfoQuery.data);
  }, [userInfoQuery.data]);

  useEffect(() => {
    startSessionSocket();
    return () => stopSessionSocket();
  }, []);

  const nodes = useMemo(() => buildNodes(filterRoutes(appRoutes, session)), [session]);
  const byPath = useMemo(() => new Map(flattenNodes(nodes).map((n) => [n.fullPath, n])), [nodes]);
  const allowed = useMemo(() => new Set(byPath.keys()), [byPath]);
  const affix = useMemo(
    () => flattenNodes(nodes).filter((n) => n.route.affix && isScreen(n) && !/[:*]/.test(n.fullPath)),
    [nodes],
  );

  const pathname = location.pathname;
  const node = pathname === '/' ? null : findNode(nodes, pathname);
  const redirect = resolveRedirect(pathname, nodes, node);
  const active = redirect ? null : node;

  // The tabs are kept per user: the id and account (an account name may be given to a new user after a deletion).
  const owner = session.userInfo ? `${session.userInfo.user.id}:${session.userInfo.user.account}` : '';
  const resolve = useCallback(
    (path: string): RouteNode | null => {
      const n = findNode(nodes, path);
      return n && isScreen(n) ? n : null;
    },
    [nodes],
  );
  const tabs = useVisitedViews({ affix, allowed, owner, resolve });
  const { visit } = tabs;
  useEffect(() => {
    if (active) visit(active, pathname, location.search);
  }, [active, pathname, location.search, visit]);

  // The active view is shown at once, with the address as it is now, even before the tab list has taken it in (a
  // list writing its page or filters to the address sees them at once, not one render later).
  const views: VisitedView[] = useMemo(() => {
    if (!active) return tabs.views;
    const i = tabs.views.findIndex((v) => v.path === pathname);
    const current = tabs.views[i];
    if (current) {
      if (current.search === location.search && current.mounted) return tabs.views;
      const next = [...tabs.views];
      next[i] = { ...current, search: location.search, mounted: true };
      return next;
    }
    return [
      ...tabs.views,
      {
        name: active.fullPath,
        path: pathname,
        search: location.search,
        titleKey: active.route.titleKey,
        affix: Boolean(active.route.affix),
        noCache: Boolean(active.route.noCache),
        mounted: true,
        used: Number.MAX_SAFE_INTEGER,
        version: 0,
      },
    ];
  }, [tabs.views, active, pathname, location.search]);

  // Scroll to top on navigation (spec §2).
  useEffect(() => {
    mainRef.current?.scrollTo({ top: 0 });
  }, [pathname]);

  // Page title: '<system title> - <page title>'.
  const pageTitle = active ? (active.route.titleKey ? t(active.route.titleKey) : t('common:tabs.noName')) : '';
  useEffect(() => {
    document.title = pageTitle ? `${branding.systemTitle} - ${pageTitle}` : branding.systemTitle;
  }, [branding.systemTitle, pageTitle]);

  const [collapsed, setCollapsed] = useState(() => getCookie(SIDEBAR_COOKIE) === '0');
  const toggle = (): void => {
    setCollapsed((c) => {
      setCookie(SIDEBAR_COOKIE, c ? '1' : '0');
      return !c;
    });
  };

  const crumbs = (active?.chain ?? []).map((n, i, all) => {
    const title = n.route.titleKey ? t(n.route.titleKey) : t('common:tabs.noName');
    const last = i === all.length - 1;
    return {
      key: n.fullPath,
      title:
        !last && isScreen(n) ? (
          <a
            href={`#${n.fullPath}`}
            onClick={(e) => {
              e.preventDefault();
              void navigate(n.fullPath);
            }}
          >
            {title}
          </a>
        ) : (
          title
        ),
    };
  });

  return (
    <PermittedRoutesContext.Provider value={nodes}>
      <Layout className="gs-shell" hasSider>
        <Layout.Sider
          className="gs-sider"
          collapsed={collapsed}
          collapsedWidth={64}
          width={224}
          trigger={null}
          theme="dark"
          data-testid="sidebar"
          data-collapsed={collapsed ? 'true' : 'false'}
        >
          <a
            className="gs-brand"
            href="#/"
            onClick={(e) => {
              e.preventDefault();
              void navigate('/');
            }}
            title={branding.systemTitle}
          >
            <img src={branding.logo} alt="" className="gs-brand-logo" />
            {collapsed ? null : <span className="gs-brand-title">{branding.systemTitle}</span>}
          </a>
          <div className="gs-sider-menu">
            <SideMenu nodes={nodes} active={active} collapsed={collapsed} />
          </div>
          {collapsed ? null : (
            <RoleImages fileId={session.userInfo?.roleFileId ?? session.userInfo?.role.roleFileId ?? null} />
          )}
        </Layout.Sider>
        <Layout className="gs-body">
          <Layout.Header className="gs-header">
            <div className="gs-header-left">
              <Tooltip title={collapsed ? t('common:header.expand') : t('common:header.collapse')}>
                <Button
                  type="text"
                  className="gs-header-action"
                  data-testid="sidebar-toggle"
                  onClick={toggle}
                  icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                  aria-label={collapsed ? t('common:header.expand') : t('common:header.collapse')}
                />
              </Tooltip>
              <span className="gs-project-title" data-testid="project-title">
                {branding.projectTitle || t('common:header.projectTitle')}
              </span>
              <Breadcrumb className="gs-breadcrumb" items={crumbs} data-testid="breadcrumb" />
            </div>
            <div className="gs-header-right">
              {hasPermission('appDownload', session) ? <AppDownload /> : null}
              {hasPermission('digitalGallery', session) ? <BigScreenLink /> : null}
              <ThreeDLink />
              <AlertPopup />
              <LanguageSwitch className="gs-header-action" />
              <UserMenu />
            </div>
          </Layout.Header>
          <TagsView api={tabs} activePath={active ? pathname : null} />
          {socketSupported() ? null : (
            <Alert banner type="warning" showIcon title={t('common:socket.unsupported')} data-testid="socket-warning" />
          )}
          <div className="gs-main" ref={mainRef} id="gs-main">
            <div className="gs-content">
              {redirect ? <Navigate to={redirect} replace /> : null}
              <ViewHost views={views} activePath={active ? pathname : null} nodes={byPath} />
            </div>
            <PageFooter />
          </div>
          <BackTop target={mainRef} />
        </Layout>
      </Layout>
    </PermittedRoutesContext.Provider>
  );
}
