import { lazy, Suspense, useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { endSessionLocally, isLoggedIn, storeUserInfo, loggedOutOnPurposeMark, useSession } from '../shared/session.ts';
import { fetchUserInfo, USER_INFO_KEY } from '../features/session/index.ts';

/** The path to come back to after logging in, for the login URL (none for the home page). */
export function loginPath(from?: string): string {
  return from && from !== '/' && from !== '/home' && !from.startsWith('/login')
    ? `/login?redirect=${encodeURIComponent(from)}`
    : '/login';
}

/**
 * Spec §2 navigation guard: no token or no stored user name sends the user to /login; on the first
 * navigation after login the permission list must be in storage (it is read from getUserInfo if not).
 */
export function RequireAuth({ children }: { children: ReactNode }): ReactElement {
  const session = useSession();
  const location = useLocation();
  if (!isLoggedIn(session)) {
    const purposeful = loggedOutOnPurposeMark();
    return <Navigate to={purposeful ? '/login' : loginPath(location.pathname + location.search)} replace />;
  }
  if (!session.permissions || !session.userInfo) return <SessionLoader />;
  return <>{children}</>;
}

// Shown only when the session cannot be read: loaded then (with its illustrations), not with every page.
const Result = lazy(() => import('antd/es/result'));

/** Reads the permission list and user info once when storage lacks them. */
function SessionLoader(): ReactElement {
  const { t } = useTranslation('common');
  const q = useQuery({ queryKey: USER_INFO_KEY, queryFn: fetchUserInfo, retry: false });
  useEffect(() => {
    if (q.data) storeUserInfo(q.data);
  }, [q.data]);
  if (q.isError) {
    return (
      <Suspense fallback={null}>
        <Result
          status="warning"
          title={t('session.loadFailed')}
          subTitle={q.error.message}
          extra={[
            <Button key="retry" type="primary" onClick={() => void q.refetch()}>
              {t('action.retry')}
            </Button>,
            <Button key="login" onClick={() => endSessionLocally()}>
              {t('action.backToLogin')}
            </Button>,
          ]}
        />
      </Suspense>
    );
  }
  return <Spin fullscreen spinning description={t('session.loading')} />;
}

/** A logged-in user opening /login goes to / (checked when the page opens, not while logging in). */
export function PublicOnly({ children }: { children: ReactNode }): ReactElement {
  const [loggedInAtOpen] = useState(() => isLoggedIn());
  if (loggedInAtOpen) return <Navigate to="/" replace />;
  return <>{children}</>;
}
