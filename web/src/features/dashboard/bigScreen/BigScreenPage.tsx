import { useEffect, type ReactElement } from 'react';
import { Navigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BIG_SCREEN_COMMON_PERMISSION, BIG_SCREEN_PERMISSION, type BigScreenVariant } from '@geosentry/contract';
import { apiEvents } from '../../../shared/api.ts';
import { hasPermission, storeUserInfo, useSession } from '../../../shared/session.ts';
import { startSessionSocket, stopSessionSocket } from '../../../shared/socket.ts';
import { useBranding } from '../../../shared/public-config.ts';
import { fetchUserInfo, USER_INFO_KEY } from '../../session/index.ts';
import { Stage } from './Stage.tsx';
import { CommonScreen } from './CommonScreen.tsx';
import { DutyScreen } from './DutyScreen.tsx';
import { useWords } from './words.ts';
import './bigScreen.css';

/** Where a user goes for a variant: the variant itself, the other one, or /404 (spec §2, §6). */
export function bigScreenTarget(
  variant: BigScreenVariant,
  has: (code: string) => boolean,
): 'stay' | '/digitalGallery-xqh' | '/404' {
  if (!has(BIG_SCREEN_PERMISSION)) return '/404';
  // A holder of :common opening -xqh may stay there (to see what a duty engineer sees); the others never see common.
  if (variant === 'common' && !has(BIG_SCREEN_COMMON_PERMISSION)) return '/digitalGallery-xqh';
  return 'stay';
}

/**
 * The big screen (/digitalGallery and /digitalGallery-xqh): outside the console (no antd, no menu), signed in
 * (RequireLogin). Reads the permission list when storage lacks it (opened in a new tab straight after login),
 * decides the variant, opens the session socket and, when the session ends (socket close 4001 or an expired
 * answer), clears the cache: the request layer has cleared the stored session, so RequireLogin sends the page to
 * /login (and back here after the next login).
 */
export function BigScreenPage({ variant }: { variant: BigScreenVariant }): ReactElement {
  const session = useSession();
  const client = useQueryClient();
  const words = useWords();
  const branding = useBranding();
  // Permissions are read from the server once per page load (they may have changed since they were stored).
  const info = useQuery({ queryKey: USER_INFO_KEY, queryFn: fetchUserInfo, staleTime: 60_000, retry: 1 });
  useEffect(() => {
    if (info.data) storeUserInfo(info.data);
  }, [info.data]);

  useEffect(() => {
    const previous = apiEvents.onSessionEnd;
    apiEvents.onSessionEnd = () => {
      stopSessionSocket();
      client.clear();
    };
    startSessionSocket();
    return () => {
      apiEvents.onSessionEnd = previous;
      stopSessionSocket();
    };
  }, [client]);

  const title = variant === 'common' ? words.t('title') : words.t('titleDuty');
  useEffect(() => {
    document.title = `${branding.systemTitle} - ${title}`;
  }, [branding.systemTitle, title]);

  if (!session.permissions || !session.userInfo)
    return (
      <div className="bs-viewport bs-wait" data-testid="big-screen-loading">
        {words.t('loading')}
      </div>
    );
  const target = bigScreenTarget(variant, (code) => hasPermission(code, session));
  if (target !== 'stay') return <Navigate to={target} replace />;
  return <Stage>{variant === 'common' ? <CommonScreen words={words} /> : <DutyScreen words={words} />}</Stage>;
}
