import { lazy, Suspense, useCallback, useState, type ReactElement } from 'react';
import { Button, Tag } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../../shared/labels.ts';
import { useSession } from '../../../shared/session.ts';
import { formatInZone, hourInZone, instantToWall } from '../../../shared/time.ts';
import { useTimeZone } from '../../../shared/useTimeZone.ts';
import { Counters } from './Counters.tsx';
import { LatestAlerts } from './LatestAlerts.tsx';
import { WeatherCard } from './WeatherCard.tsx';
import { RegionPicker } from './RegionPicker.tsx';
import { AlertDaysChart, AlertTypesChart, ClassificationTable } from './HomeCharts.tsx';
import { useHome, useHomeLive, useRegionParam, useRegions } from './homeApi.ts';
import { deviceListLink } from './links.ts';
import './home.css';

// The map (Leaflet, about 38 KiB compressed) loads after the counters have painted.
const HomeMap = lazy(() => import('./HomeMap.tsx').then((m) => ({ default: m.HomeMap })));

function greetingKey(hour: number): string {
  if (hour < 5) return 'home:welcome.evening';
  if (hour < 12) return 'home:welcome.morning';
  if (hour < 18) return 'home:welcome.afternoon';
  return 'home:welcome.evening';
}

/** A card with a title; a body that loads later waits in a box of its height (the page does not jump). */
function Card({
  title,
  className,
  lazyHeight,
  children,
}: {
  title: string;
  className?: string;
  lazyHeight?: number;
  children: ReactElement;
}) {
  return (
    <section className={`gs-hc-card ${className ?? ''}`}>
      <header className="gs-hc-head">
        <h2>{title}</h2>
      </header>
      {lazyHeight ? (
        <Suspense fallback={<div className="gs-hc-later" style={{ height: lazyHeight }} />}>{children}</Suspense>
      ) : (
        children
      )}
    </section>
  );
}

/**
 * Home (role index, spec §2): what is wrong and where, in the user's data scope, from one call (dashboard/getHome)
 * and the region tree. A compact greeting; statistics status and alert count (counters linking to their lists);
 * regional screening (a region narrows everything to its subtree, kept in the address); the map of sites by state;
 * the latest alerts; alert statistics over 30 days; classification status; the weather of a site. Live: socket
 * events read home again, throttled (homeApi.ts).
 * Test hooks: home-page (data-region, data-updated-at), home-greeting, home-role, home-region.
 */
export function HomePage(): ReactElement {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const info = session.userInfo;
  const user = info?.user;
  const name = user?.name || user?.account || session.userName || '';
  const { zone } = useTimeZone();
  const [region, setRegion] = useRegionParam();
  const home = useHome(region, zone);
  const data = home.data;
  const { connected } = useHomeLive(data, home.refetch);
  const regions = useRegions();
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const weatherSite =
    picked !== undefined && data?.map.some((s) => s.platformId === picked) ? picked : data?.map[0]?.platformId;
  const classLink = useCallback(
    (moduleId: number, state: 'normal' | 'alert' | 'alarm' | 'abnormal' | 'offline') =>
      deviceListLink(session, state, moduleId, region),
    [session, region],
  );

  const now = Date.now();
  const today = instantToWall(now, zone)
    .locale(i18n.language === 'zh' ? 'zh-cn' : i18n.language)
    .format(t('home:welcome.dateFormat'));

  return (
    <div
      className="gs-page gs-home"
      data-testid="home-page"
      data-region={region ?? ''}
      data-updated-at={home.dataUpdatedAt}
    >
      <div className="gs-home-bar">
        <h1 className="gs-home-greeting" data-testid="home-greeting">
          {t(greetingKey(hourInZone(now, zone)), { name })}
        </h1>
        {info ? (
          <Tag icon={<SafetyCertificateOutlined />} color="blue" data-testid="home-role">
            {roleLabel(info.role)}
          </Tag>
        ) : null}
        {user ? (
          <span className="gs-home-meta">
            {user.scopeAll
              ? t('home:welcome.scopeAll')
              : t('home:welcome.scopeSites', { count: user.platformIds.length })}
          </span>
        ) : null}
        <span className="gs-home-meta gs-home-date">{today}</span>
        <span className="gs-home-spacer" />
        <RegionPicker regions={regions.data} value={region} onChange={setRegion} />
        <span
          className={`gs-home-live${connected ? ' gs-home-live-on' : ''}`}
          data-testid="home-live"
          title={connected ? t('home:live.on') : t('home:live.off')}
        >
          <i />
          {data ? t('home:live.updated', { time: formatInZone(data.at, zone, 'HH:mm:ss') }) : t('home:live.loading')}
        </span>
      </div>

      {data ? (
        <Counters data={data} regionCode={region} />
      ) : (
        <div className="gs-hc-row gs-hc-row-loading" data-testid="home-loading">
          {home.isError ? (
            <div className="gs-hc-card gs-hc-failed">
              <p>{t('home:failed')}</p>
              <Button onClick={() => void home.refetch()}>{t('home:retry')}</Button>
            </div>
          ) : (
            <>
              <div className="gs-hc-card gs-hc-later" />
              <div className="gs-hc-card gs-hc-later" />
              <div className="gs-hc-card gs-hc-later" />
            </>
          )}
        </div>
      )}

      {data ? (
        <div className="gs-home-grid">
          <Card title={t('home:map.title')} className="gs-home-map" lazyHeight={406}>
            <HomeMap sites={data.map} counts={data.sites.byState} onPick={setPicked} />
          </Card>
          <LatestAlerts alerts={data.latestAlerts} />
          <Card title={t('home:charts.days', { count: data.alertDays.length })}>
            <AlertDaysChart days={data.alertDays} />
          </Card>
          <Card title={t('home:charts.types')}>
            <AlertTypesChart types={data.alertTypes} />
          </Card>
          <Card title={t('home:classification.title')} className="gs-home-class">
            <ClassificationTable rows={data.classification} link={classLink} />
          </Card>
          <WeatherCard platformId={weatherSite} enabled={data.map.length > 0} />
        </div>
      ) : null}
    </div>
  );
}
