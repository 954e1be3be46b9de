import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { ALERT_LEVEL_COLOURS, ALERT_LEVELS, type DashboardAlert, type Weather } from '@geosentry/contract';
import { EChart, type EChartOption } from '../../../shared/charts/EChart.tsx';
import { formatInZone, userTimeZone, zoneLabel } from '../../../shared/time.ts';
import { formatValue } from '../../../shared/format.ts';
import { useCarousel } from './RankingBoard.tsx';
import type { LiveCurve } from './live.ts';
import { withUnit, type Words } from './words.ts';

/** A framed panel of the stage: a title bar and its content, placed in design px. */
export function Panel({
  title,
  extra,
  children,
  className,
  testId,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}): ReactElement {
  return (
    <section className={className ? `bs-panel ${className}` : 'bs-panel'} data-testid={testId}>
      <header className="bs-panel-title">
        <span>{title}</span>
        {extra ? <span className="bs-panel-extra">{extra}</span> : null}
      </header>
      <div className="bs-panel-body">{children}</div>
    </section>
  );
}

/** The clock in the user's zone (the zone named under it), ticking each second. */
export function Clock({ words }: { words: Words }): ReactElement {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const zone = userTimeZone();
  return (
    <div className="bs-clock" data-testid="big-screen-clock">
      <div className="bs-clock-time">{formatInZone(now, zone, 'HH:mm:ss')}</div>
      <div className="bs-clock-date">
        {formatInZone(now, zone, 'YYYY-MM-DD')} · {words.t('zone', { zone: zoneLabel(zone, now) })}
      </div>
    </div>
  );
}

/** The weather of a site from its own sensors, or the configured provider's widget (spec §7, issue 18 scope 4). */
export function WeatherBox({ weather, words }: { weather: Weather | undefined; words: Words }): ReactElement {
  const { t } = words;
  if (weather?.providerUrl)
    return (
      <iframe
        className="bs-weather-frame"
        src={weather.providerUrl}
        title={t('weather.title')}
        sandbox="allow-scripts allow-same-origin"
        referrerPolicy="no-referrer"
      />
    );
  const has =
    weather &&
    [weather.temperature, weather.humidity, weather.rain1h, weather.rain24h, weather.windSpeed].some((v) => v !== null);
  return (
    <div className="bs-weather" data-testid="big-screen-weather">
      <div className="bs-weather-site">{weather?.platformName ?? t('weather.title')}</div>
      {has ? (
        <div className="bs-weather-values">
          <span>
            <em>{t('weather.temperature')}</em>
            {withUnit(weather.temperature, '°C')}
          </span>
          <span>
            <em>{t('weather.humidity')}</em>
            {withUnit(weather.humidity, '%')}
          </span>
          <span>
            <em>{t('weather.rain1h')}</em>
            {withUnit(weather.rain1h, 'mm')}
          </span>
          <span>
            <em>{t('weather.rain24h')}</em>
            {withUnit(weather.rain24h, 'mm')}
          </span>
          <span>
            <em>{t('weather.wind')}</em>
            {weather.windSpeed === null ? '-' : `${withUnit(weather.windSpeed, 'm/s')} ${weather.windCompass ?? '--'}`}
          </span>
        </div>
      ) : (
        <div className="bs-weather-none">{t('weather.none')}</div>
      )}
    </div>
  );
}

/** Open alerts by level: four tiles in the levels' colours. */
export function OpenAlerts({ open, words }: { open: Record<string, number>; words: Words }): ReactElement {
  return (
    <div className="bs-levels" data-testid="big-screen-open">
      {[...ALERT_LEVELS].reverse().map((l) => (
        <div key={l} className="bs-level" style={{ borderColor: ALERT_LEVEL_COLOURS[l].hex }} data-level={l}>
          <b style={{ color: ALERT_LEVEL_COLOURS[l].hex }} data-testid={`open-level-${l}`}>
            {open[String(l)] ?? 0}
          </b>
          <span>{words.level(l)}</span>
        </div>
      ))}
    </div>
  );
}

const TICKER_ROWS = 5;

/** The newest alerts, one row moving up every few seconds when more than fit; each row in its level's colour. */
export function AlertTicker({
  alerts,
  words,
  rows = TICKER_ROWS,
}: {
  alerts: readonly DashboardAlert[];
  words: Words;
  rows?: number;
}): ReactElement {
  const { offset, sliding } = useCarousel(alerts.length, rows, 3000);
  if (alerts.length === 0) return <div className="bs-empty">{words.t('noAlerts')}</div>;
  const shown: DashboardAlert[] = [];
  const n = Math.min(alerts.length, alerts.length > rows ? rows + 1 : rows);
  for (let i = 0; i < n; i++) shown.push(alerts[(offset + i) % alerts.length]!);
  return (
    <div className="bs-ticker" data-testid="big-screen-ticker" data-count={alerts.length}>
      <div
        className="bs-ticker-rows"
        style={{
          transform: sliding ? `translateY(-${100 / rows}%)` : 'none',
          transition: sliding ? 'transform 500ms ease' : 'none',
        }}
      >
        {shown.map((a, i) => (
          <div
            key={`${i}:${a.id}`}
            className="bs-ticker-row"
            style={{ height: `${100 / rows}%`, borderLeftColor: ALERT_LEVEL_COLOURS[a.level].hex }}
            data-testid="ticker-row"
          >
            <span className="bs-ticker-level" style={{ background: ALERT_LEVEL_COLOURS[a.level].hex }}>
              {words.level(a.level)}
            </span>
            <span className="bs-ticker-time">{formatInZone(a.lastAt, userTimeZone(), 'MM-DD HH:mm')}</span>
            <span className="bs-ticker-where">
              {a.platformName ?? '-'} · {a.deviceName ?? '-'}
            </span>
            <span className="bs-ticker-what">{words.alertText(a)}</span>
            <span className="bs-ticker-status">{words.status(a.status)}</span>
          </div>
        ))}
      </div>
    </div>
  );
}

export interface ReservoirRow {
  platformId: number;
  name: string;
  level: number | null;
  floodLevel: number | null;
  limitedFloodLevel: number | null;
}

/**
 * Reservoir levels against their limits: a column per reservoir with its level as a bar and two lines, the limited
 * flood level (yellow, dashed) and the flood level (red). Each column has its own scale around its three values
 * (water levels are elevations: a common scale from 0 would show every bar full); the values are written out.
 */
export function ReservoirLevels({ rows, words }: { rows: readonly ReservoirRow[]; words: Words }): ReactElement {
  const { t } = words;
  const shown = rows.slice(0, 6);
  if (shown.length === 0) return <div className="bs-empty">{t('noReservoirs')}</div>;
  return (
    <div className="bs-res" data-testid="big-screen-reservoirs">
      <div className="bs-res-cols">
        {shown.map((r) => {
          const vals = [r.level, r.floodLevel, r.limitedFloodLevel].filter((v): v is number => v !== null);
          const lo0 = Math.min(...vals);
          const hi0 = Math.max(...vals);
          const pad = Math.max(1, (hi0 - lo0) * 0.4);
          const lo = lo0 - pad;
          const hi = hi0 + pad * 0.5;
          const pos = (v: number): string => `${(((v - lo) / (hi - lo)) * 100).toFixed(1)}%`;
          const over = r.level !== null && r.floodLevel !== null && r.level >= r.floodLevel;
          const near = r.level !== null && r.limitedFloodLevel !== null && r.level >= r.limitedFloodLevel;
          const colour = over ? '#ff4d4f' : near ? '#ffb020' : '#2fa8ff';
          return (
            <div key={r.platformId} className="bs-res-col" data-testid="reservoir">
              <div className="bs-res-value" style={{ color: colour }}>
                {r.level === null ? '-' : `${formatValue(r.level, 2)} m`}
              </div>
              <div className="bs-res-track">
                {r.level !== null && vals.length > 0 ? (
                  <div className="bs-res-bar" style={{ height: pos(r.level), background: colour }} />
                ) : null}
                {r.limitedFloodLevel !== null ? (
                  <div className="bs-res-line bs-res-limited" style={{ bottom: pos(r.limitedFloodLevel) }} />
                ) : null}
                {r.floodLevel !== null ? (
                  <div className="bs-res-line bs-res-flood" style={{ bottom: pos(r.floodLevel) }} />
                ) : null}
              </div>
              <div className="bs-res-name" title={r.name}>
                {r.name}
              </div>
            </div>
          );
        })}
      </div>
      {/* The key only where a line is drawn: a reservoir without flood levels shows none. */}
      {shown.some((r) => r.floodLevel !== null || r.limitedFloodLevel !== null) ? (
        <div className="bs-res-legend">
          <span>
            <i className="bs-res-key bs-res-limited" />
            {t('reservoir.limited')}
          </span>
          <span>
            <i className="bs-res-key bs-res-flood" />
            {t('reservoir.flood')}
          </span>
        </div>
      ) : null}
    </div>
  );
}

const CURVE_COLOURS = ['#ff4d4f', '#ffb020', '#3de7ff', '#9b7bff', '#52c41a', '#ff7ad9'];

/**
 * Live curves of devices in alarm: one ECharts line chart (one instance for the page's life), a series per device,
 * a time axis sliding with the newest reading. `version` changes when points were appended; the option is merged
 * into the chart (notMerge false), only the series' data change.
 */
export function AlarmCurves({
  curves,
  version,
  words,
  height,
}: {
  curves: ReadonlyMap<number, LiveCurve>;
  version: number;
  words: Words;
  height: number;
}): ReactElement {
  const list = [...curves.values()];
  const ids = list.map((c) => c.deviceId).join(',');
  const option = useMemo((): EChartOption => {
    const zone = userTimeZone();
    return {
      backgroundColor: 'transparent',
      animation: false,
      color: CURVE_COLOURS,
      grid: { left: 64, right: 18, top: 44, bottom: 30 },
      legend: {
        top: 4,
        textStyle: { color: '#cfe8ff', fontSize: 14 },
        itemWidth: 16,
        // One line that pages: a second line of names would cover the plot.
        type: 'scroll',
        pageTextStyle: { color: '#cfe8ff' },
        pageIconColor: '#3de7ff',
      },
      tooltip: { trigger: 'axis' },
      xAxis: {
        type: 'time',
        axisLabel: {
          color: '#8fb4d8',
          fontSize: 13,
          formatter: (v: number) => formatInZone(v, zone, 'HH:mm'),
          hideOverlap: true,
        },
        axisLine: { lineStyle: { color: '#2a4a6e' } },
        splitLine: { show: false },
      },
      yAxis: {
        type: 'value',
        scale: true,
        axisLabel: { color: '#8fb4d8', fontSize: 13 },
        splitLine: { lineStyle: { color: 'rgba(80,140,200,0.18)' } },
      },
      series: list.map((c) => {
        const q = words.quantity(c.quantity);
        return {
          id: `d${c.deviceId}`,
          type: 'line' as const,
          name: `${c.deviceName} ${q.label}${c.unit || q.unit ? ` (${c.unit || q.unit})` : ''}`,
          showSymbol: false,
          smooth: false,
          lineStyle: { width: 2 },
          data: c.points,
        };
      }),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- points change in place: version says when
  }, [version, ids, words.lang]);
  if (list.length === 0) return <div className="bs-empty">{words.t('noCurves')}</div>;
  // A new set of devices replaces the series (a device out of alarm goes); points alone merge into the same chart.
  return (
    <EChart option={option} theme="dark" height={height} replaceMerge={['series']} data-testid="big-screen-curves" />
  );
}
