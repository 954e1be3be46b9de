import { useMemo, useState, type ReactElement } from 'react';
import { SITE_STATES, type BigScreenData, type SiteState } from '@geosentry/contract';
import { Header } from './Header.tsx';
import { RankingBoard, type RankRow } from './RankingBoard.tsx';
import { SiteMap } from './SiteMap.tsx';
import { WaterPond } from './WaterPond.tsx';
import { useBigScreen, useWeather } from './live.ts';
import { AlarmCurves, AlertTicker, OpenAlerts, Panel, ReservoirLevels } from './widgets.tsx';
import type { Words } from './words.ts';
import { formatValue } from '../../../shared/format.ts';

/** Severity order of site states: the first needs attention most. */
export const SEVERITY: Record<SiteState, number> = { alarm: 0, alert: 1, abnormal: 2, offline: 3, normal: 4 };

export function siteCounts(sites: BigScreenData['sites']): Record<SiteState, number> {
  const c = Object.fromEntries(SITE_STATES.map((s) => [s, 0])) as Record<SiteState, number>;
  for (const s of sites) c[s.state]++;
  return c;
}

/**
 * The `common` variant (holders of digitalGallery:common): the network overview for the control room. Every site
 * of the user's scope on one map by state; the network's device online rate, open alerts by level, the rainfall
 * ranking of the last 24 hours, reservoir levels against their limits, the alert ticker and the live curves of the
 * devices in alarm. See docs/decisions.md "Big screen: two variants".
 */
export function CommonScreen({ words }: { words: Words }): ReactElement {
  const { t } = words;
  const live = useBigScreen('all', null);
  const data = live.data;
  const sites = useMemo(() => data?.sites ?? [], [data]);
  const counts = useMemo(() => siteCounts(sites), [sites]);
  // The weather of the picked site, else of the most severe one (the one the room looks at).
  const [picked, setPicked] = useState<number | null>(null);
  const weatherSite =
    picked ??
    [...sites].sort((a, b) => SEVERITY[a.state] - SEVERITY[b.state] || a.name.localeCompare(b.name))[0]?.platformId ??
    null;
  const weather = useWeather(weatherSite);
  const rainRows = useMemo(
    (): RankRow[] =>
      (data?.rainRanking ?? []).map((r) => ({
        key: r.deviceId,
        name: `${r.platformName} · ${r.deviceName}`,
        rank: r.rain,
        value: `${formatValue(r.rain, 1)} mm`,
      })),
    [data],
  );
  const devices = data?.devices;
  return (
    <div
      className="bs-screen bs-common"
      data-testid="big-screen"
      data-variant="common"
      data-ready={data ? 'true' : 'false'}
    >
      <Header
        subtitle={t('title')}
        weather={weather}
        connected={live.connected}
        updatedAt={live.updatedAt}
        words={words}
      />
      <div className="bs-col bs-left">
        <Panel title={t('panel.online')} testId="panel-online">
          <div className="bs-online">
            <WaterPond value={data ? data.onlineRate : null} size={190} testId="online-rate" />
            <div className="bs-online-counts">
              <div>
                <em>{t('counts.total')}</em>
                <b data-testid="devices-total">{devices?.total ?? '-'}</b>
              </div>
              <div>
                <em>{t('counts.online')}</em>
                <b className="bs-ok" data-testid="devices-online">
                  {devices?.online ?? '-'}
                </b>
              </div>
              <div>
                <em>{t('counts.offline')}</em>
                <b className="bs-off" data-testid="devices-offline">
                  {devices?.offline ?? '-'}
                </b>
              </div>
            </div>
          </div>
        </Panel>
        <Panel title={t('panel.openAlerts')} testId="panel-open">
          <OpenAlerts open={data?.open ?? {}} words={words} />
        </Panel>
        <Panel title={t('panel.rain')} className="bs-grow" testId="panel-rain">
          <RankingBoard
            rows={rainRows}
            header={[t('rank.gauge'), t('rank.rain')]}
            height={420}
            empty={t('noRain')}
            testId="rain-ranking"
          />
        </Panel>
      </div>
      <div className="bs-col bs-centre">
        <Panel
          title={t('panel.map')}
          extra={`${t('counts.sites')} ${sites.length}`}
          className="bs-map-panel"
          testId="panel-map"
        >
          <SiteMap sites={sites} stateLabel={words.state} counts={counts} onPick={setPicked} />
        </Panel>
        <Panel title={t('panel.ticker')} className="bs-ticker-panel" testId="panel-ticker">
          <AlertTicker alerts={data?.latestAlerts ?? []} words={words} />
        </Panel>
      </div>
      <div className="bs-col bs-right">
        <Panel title={t('panel.reservoirs')} className="bs-res-panel" testId="panel-reservoirs">
          <ReservoirLevels rows={data?.reservoirs ?? []} words={words} />
        </Panel>
        <Panel title={t('panel.curves')} className="bs-grow" testId="panel-curves">
          <AlarmCurves curves={live.curves} version={live.curveVersion} words={words} height={430} />
        </Panel>
      </div>
    </div>
  );
}
