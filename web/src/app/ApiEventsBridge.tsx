import { useEffect, useState, type ReactElement } from 'react';
import { App as AntdApp, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiEvents } from '../shared/api.ts';
import { stopSessionSocket } from '../shared/socket.ts';
import { takeWelcome } from '../shared/session.ts';
import { router } from './router.tsx';
import { loginPath } from './guards.tsx';

/**
 * Connects the request layer to the screen: warnings and errors as messages, a session end as a
 * message plus the way to /login, and a loading overlay while calls made with {loading:true} run.
 */
export function ApiEventsBridge(): ReactElement {
  const { message } = AntdApp.useApp();
  const queryClient = useQueryClient();
  const { t } = useTranslation('common');
  const [pending, setPending] = useState(0);

  useEffect(() => {
    apiEvents.onWarning = (info) => void message.warning(info);
    apiEvents.onError = (info) => void message.error({ content: info, key: `error:${info}` });
    apiEvents.onSessionEnd = (info) => {
      stopSessionSocket();
      void message.error({ content: info, key: 'session-end', duration: 5 });
      queryClient.clear();
      const { pathname, search } = router.state.location;
      if (!pathname.startsWith('/login')) void router.navigate(loginPath(pathname + search), { replace: true });
    };
    apiEvents.onLoading = (n) => setPending(n);
    const name = takeWelcome();
    if (name) void message.success(t('login.welcome', { ns: 'session', name }));
  }, [message, queryClient, t]);

  return <Spin fullscreen spinning={pending > 0} description={t('loading')} data-testid="loading-overlay" />;
}
