import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  ALERT_LEVEL_COLOURS,
  SITE_STATE_COLOURS,
  SITE_STATES,
  type AlertLevel,
  type HomeData,
  type SiteState,
} from '@geosentry/contract';
import { hasPermission, useSession } from '../../../shared/session.ts';
import { siteKinds } from './site-kinds.tsx';
import { deviceListLink, openAlertsLink, siteListLink } from './links.ts';

/** Levels as a duty engineer reads them: the worst first. */
const LEVELS_WORST_FIRST: AlertLevel[] = [4, 3, 2, 1];
/** Text on a level or state colour: dark on yellow, white elsewhere. */
const ink = (hex: string): string => (hex.toLowerCase() === '#ffcc33' ? '#3b2e00' : '#ffffff');

/** A number that links to the list it counts (plain text when the user may not open that list). */
function CountLink({ to, children, testId }: { to: string | null; children: ReactNode; testId: string }) {
  return to ? (
    <Link to={to} className="gs-hc-link" data-testid={testId}>
      {children}
    </Link>
  ) : (
    <span className="gs-hc-link gs-hc-nolink" data-testid={testId}>
      {children}
    </span>
  );
}

/** A proportional strip of counts by state (empty grey when all are 0). */
function StateStrip({ counts, label }: { counts: Record<SiteState, number>; label: (s: SiteState) => string }) {
  const total = SITE_STATES.reduce((n, s) => n + (counts[s] ?? 0), 0);
  return (
    <div className="gs-hc-strip" role="img" aria-label={SITE_STATES.map((s) => `${label(s)} ${counts[s]}`).join(', ')}>
      {total === 0
        ? null
        : SITE_STATES.filter((s) => counts[s] > 0).map((s) => (
            <i key={s} style={{ flexGrow: counts[s], background: SITE_STATE_COLOURS[s] }} />
          ))}
    </div>
  );
}

/**
 * Statistics status and alert count (spec §2 home), the first paint of home: sites by state and kind, devices by
 * state, open alerts by level. Every number is a link to the list it counts.
 * Test hooks: home-sites-total, home-site-state-<state>, home-site-kind-<type>, home-devices-total,
 * home-devices-online, home-device-state-<state>, home-open-total, home-open-<level>.
 */
export function Counters({ data, regionCode }: { data: HomeData; regionCode: string | undefined }): ReactElement {
  const { t } = useTranslation();
  const session = useSession();
  const stateLabel = (s: SiteState) => t(`home:states.${s}`);
  const kinds = new Map(siteKinds().map((k) => [k.type, k]));
  const d = data.devices;
  const onlineRate = d.total > 0 ? Math.round((d.online / d.total) * 1000) / 10 : 0;
  const a = data.alerts;

  return (
    <div className="gs-hc-row">
      <section className="gs-hc-card" data-testid="home-sites">
        <header className="gs-hc-head">
          <h2>{t('home:sites.title')}</h2>
          <span className="gs-hc-total" data-testid="home-sites-total">
            {data.sites.total}
          </span>
        </header>
        <StateStrip counts={data.sites.byState} label={stateLabel} />
        <div className="gs-hc-states">
          {SITE_STATES.map((s) => (
            <span
              key={s}
              className="gs-hc-state"
              data-testid={`home-site-state-${s}`}
              data-count={data.sites.byState[s]}
            >
              <i style={{ background: SITE_STATE_COLOURS[s] }} />
              <span className="gs-hc-state-label">{stateLabel(s)}</span>
              <b>{data.sites.byState[s]}</b>
            </span>
          ))}
        </div>
        <div className="gs-hc-kinds">
          {data.sites.byType.map((k) => {
            const kind = kinds.get(k.type);
            // A kind the user neither has sites of nor may list is noise.
            if (k.total === 0 && !(kind && hasPermission(kind.permission, session))) return null;
            return (
              <CountLink
                key={k.type}
                to={siteListLink(session, k.type, regionCode)}
                testId={`home-site-kind-${k.type}`}
              >
                <span className="gs-hc-kind-icon" style={{ color: kind?.color }}>
                  {kind?.icon}
                </span>
                <span className="gs-hc-kind-label">{kind ? t(kind.labelKey) : k.type}</span>
                <span className="gs-hc-kind-dots" aria-hidden>
                  {(['alarm', 'alert', 'abnormal'] as const)
                    .filter((s) => k.byState[s] > 0)
                    .map((s) => (
                      <i
                        key={s}
                        style={{ background: SITE_STATE_COLOURS[s] }}
                        title={`${stateLabel(s)} ${k.byState[s]}`}
                      />
                    ))}
                </span>
                <b data-testid="home-count">{k.total}</b>
              </CountLink>
            );
          })}
        </div>
      </section>

      <section className="gs-hc-card" data-testid="home-devices">
        <header className="gs-hc-head">
          <h2>{t('home:devices.title')}</h2>
          <CountLink to={deviceListLink(session, undefined, undefined, regionCode)} testId="home-devices-total">
            <span className="gs-hc-total">{d.total}</span>
          </CountLink>
        </header>
        <div className="gs-hc-online" data-testid="home-devices-online" data-count={d.online}>
          <div className="gs-hc-online-bar">
            <i style={{ width: `${onlineRate}%` }} />
          </div>
          <span>{t('home:devices.online', { count: d.online, rate: onlineRate })}</span>
        </div>
        <div className="gs-hc-tiles">
          {(['alarm', 'alert', 'abnormal', 'offline'] as const).map((s) => (
            <CountLink key={s} to={deviceListLink(session, s, undefined, regionCode)} testId={`home-device-state-${s}`}>
              <span
                className={`gs-hc-tile${d.byState[s] > 0 ? ' gs-hc-tile-hot' : ''}`}
                style={{ ['--c' as string]: SITE_STATE_COLOURS[s] }}
              >
                <b data-testid="home-count">{d.byState[s]}</b>
                <span>{t(`home:devices.states.${s}`)}</span>
              </span>
            </CountLink>
          ))}
        </div>
      </section>

      <section className="gs-hc-card" data-testid="home-alerts">
        <header className="gs-hc-head">
          <h2>{t('home:alerts.title')}</h2>
          <CountLink to={openAlertsLink(session, undefined, regionCode)} testId="home-open-total">
            <span className="gs-hc-total">{a.openTotal}</span>
          </CountLink>
        </header>
        <div className="gs-hc-levels">
          {LEVELS_WORST_FIRST.map((l) => {
            const n = a.open[String(l) as '1'] ?? 0;
            const hex = ALERT_LEVEL_COLOURS[l].hex;
            return (
              <CountLink key={l} to={openAlertsLink(session, l, regionCode)} testId={`home-open-${l}`}>
                <span
                  className={`gs-hc-level${n > 0 ? ' gs-hc-level-on' : ''}`}
                  style={{ ['--c' as string]: hex, ['--ink' as string]: ink(hex) }}
                >
                  <b data-testid="home-count">{n}</b>
                  <span>{t(`alerts:levels.${l}`)}</span>
                </span>
              </CountLink>
            );
          })}
        </div>
        <div className="gs-hc-sub">
          <span>{t('home:alerts.untreated', { count: a.untreated })}</span>
          <span>{t('home:alerts.preProcess', { count: a.preProcess })}</span>
        </div>
      </section>
    </div>
  );
}
