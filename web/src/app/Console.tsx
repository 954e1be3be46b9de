import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { endSessionLocally, storeUserInfo, useSession } from '../shared/session.ts';
import { fetchUserInfo, USER_INFO_KEY } from '../features/session/index.ts';
import { ConsoleProviders } from './ConsoleProviders.tsx';
import { MainLayout } from './layout/MainLayout.tsx';

/**
 * The signed-in console: antd's providers, the session gate and the main layout. Loaded with the first console
 * path (app/router.tsx), after RequireLogin has let the user in.
 */
export function Console(): ReactElement {
  return (
    <ConsoleProviders>
      <SessionGate />
    </ConsoleProviders>
  );
}

/**
 * Spec §2 navigation guard, second half: on the first navigation after login the permission list must be in
 * storage (it is read from getUserInfo if not).
 */
function SessionGate(): ReactElement {
  const session = useSession();
  if (!session.permissions || !session.userInfo) return <SessionLoader />;
  return <MainLayout />;
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
