import { lazy, Suspense, useCallback, useMemo, useState, type ReactElement } from 'react';
import { Button, Tag, TreeSelect } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RegionNode } from '@geosentry/contract';
import { roleLabel } from '../../../shared/labels.ts';
import { useSession } from '../../../shared/session.ts';
import { formatInZone, hourInZone, instantToWall } from '../../../shared/time.ts';
import { useTimeZone } from '../../../shared/useTimeZone.ts';
import { Counters } from './Counters.tsx';
import { LatestAlerts } from './LatestAlerts.tsx';
import { WeatherCard } from './WeatherCard.tsx';
import { useHome, useHomeLive, useRegionParam, useRegions } from './homeApi.ts';
import { deviceListLink } from './links.ts';
import './home.css';

// The map (Leaflet) and the charts (ECharts) load after the counters have painted.
const HomeMap = lazy(() => import('./HomeMap.tsx').then((m) => ({ default: m.HomeMap })));
const charts = () => import('./HomeCharts.tsx');
const AlertDaysChart = lazy(() => charts().then((m) => ({ default: m.AlertDaysChart })));
const AlertTypesChart = lazy(() => charts().then((m) => ({ default: m.AlertTypesChart })));
const ClassificationTable = lazy(() => charts().then((m) => ({ default: m.ClassificationTable })));

function greetingKey(hour: number): string {
  if (hour < 5) return 'home:welcome.evening';
  if (hour < 12) return 'home:welcome.morning';
  if (hour < 18) return 'home:welcome.afternoon';
  return 'home:welcome.evening';
}

interface TreeOption {
  value: string;
  title: string;
  children?: TreeOption[];
}
const toOptions = (nodes: readonly RegionNode[]): TreeOption[] =>
  nodes.map((n) => ({
    value: n.code,
    title: n.name,
    ...(n.children?.length ? { children: toOptions(n.children) } : {}),
  }));

/** A card with a title whose body loads later (a fixed height keeps the page from jumping). */
function LazyCard({
  title,
  className,
  height,
  children,
  extra,
}: {
  title: string;
  className?: string;
  height: number;
  children: ReactElement;
  extra?: ReactElement | null;
}) {
  return (
    <section className={`gs-hc-card ${className ?? ''}`}>
      <header className="gs-hc-head">
        <h2>{title}</h2>
        {extra}
      </header>
      <Suspense fallback={<div className="gs-hc-later" style={{ height }} />}>{children}</Suspense>
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
  const treeData = useMemo(() => toOptions(regions.data ?? []), [regions.data]);
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const weatherSite =
    picked !== undefined && data?.map.some((s) => s.platformId === picked) ? picked : data?.map[0]?.platformId;
  const classLink = useCallback(
    (moduleId: number, state: 'normal' | 'alert' | 'alarm' | 'abnormal' | 'offline') =>
      deviceListLink(session, state, moduleId),
    [session],
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
        <TreeSelect<string>
          data-testid="home-region"
          className="gs-home-region"
          popupMatchSelectWidth={280}
          allowClear
          showSearch
          treeNodeFilterProp="title"
          placeholder={t('home:region.all')}
          loading={regions.isLoading}
          treeData={treeData}
          treeDefaultExpandedKeys={treeData.map((n) => n.value)}
          value={region}
          onChange={(v) => setRegion(v || undefined)}
          aria-label={t('home:region.label')}
        />
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
          <LazyCard title={t('home:map.title')} className="gs-home-map" height={380}>
            <HomeMap sites={data.map} counts={data.sites.byState} onPick={setPicked} />
          </LazyCard>
          <LatestAlerts alerts={data.latestAlerts} />
          <LazyCard
            title={t('home:charts.days', { count: data.alertDays.length })}
            height={240}
            extra={<span className="gs-hc-note">{t('home:charts.byLevel')}</span>}
          >
            <AlertDaysChart days={data.alertDays} />
          </LazyCard>
          <LazyCard title={t('home:charts.types')} height={240}>
            <AlertTypesChart types={data.alertTypes} />
          </LazyCard>
          <LazyCard title={t('home:classification.title')} className="gs-home-class" height={200}>
            <ClassificationTable rows={data.classification} link={classLink} />
          </LazyCard>
          <WeatherCard platformId={weatherSite} enabled={data.map.length > 0} />
        </div>
      ) : null}
    </div>
  );
}
