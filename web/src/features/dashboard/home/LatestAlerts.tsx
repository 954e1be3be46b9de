import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { DashboardAlert } from '@geosentry/contract';
import { useSession } from '../../../shared/session.ts';
import { formatInZone } from '../../../shared/time.ts';
import { useTimeZone } from '../../../shared/useTimeZone.ts';
import { LevelTag, StatusTag } from '../../alerts/index.ts';
import { alertLink, openAlertsLink } from './links.ts';

/**
 * The newest alerts (open or not): level, site, device, last time in the user's zone, status. A row opens the alert's
 * detail in the alert list. Test hooks: home-latest, home-latest-row (data-alert-id).
 */
export function LatestAlerts({ alerts }: { alerts: readonly DashboardAlert[] }): ReactElement {
  const { t } = useTranslation();
  const session = useSession();
  const { zone, label } = useTimeZone();
  const all = openAlertsLink(session);
  return (
    <section className="gs-hc-card gs-hl" data-testid="home-latest">
      <header className="gs-hc-head">
        <h2>{t('home:latest.title')}</h2>
        {all ? (
          <Link to={all.replace(/\?.*$/, '')} className="gs-hc-more">
            {t('home:latest.all')}
          </Link>
        ) : null}
      </header>
      {alerts.length === 0 ? (
        <p className="gs-hc-empty">{t('home:latest.none')}</p>
      ) : (
        <ol className="gs-hl-list">
          {alerts.map((a) => {
            const to = alertLink(session, a.id);
            const body = (
              <>
                <LevelTag level={a.level} compact />
                <span className="gs-hl-text">
                  <span className="gs-hl-where">
                    <b>{a.platformName ?? '-'}</b>
                    {a.deviceName ? <span> · {a.deviceName}</span> : null}
                  </span>
                  <time dateTime={a.lastAt} title={label ?? undefined}>
                    {formatInZone(a.lastAt, zone, 'MM-DD HH:mm')}
                  </time>
                </span>
                <StatusTag status={a.status} />
              </>
            );
            return (
              <li key={a.id} data-testid="home-latest-row" data-alert-id={a.id}>
                {to ? (
                  <Link to={to} className="gs-hl-row">
                    {body}
                  </Link>
                ) : (
                  <span className="gs-hl-row">{body}</span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
