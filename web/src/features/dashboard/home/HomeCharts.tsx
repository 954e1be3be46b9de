import { useMemo, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  ALERT_LEVEL_COLOURS,
  ALERT_LEVELS,
  SITE_STATE_COLOURS,
  type AlertLevel,
  type HomeData,
} from '@geosentry/contract';
import { EChart, type EChartOption } from '../../../shared/charts/EChart.tsx';
import { useMonitorTypes } from '../../../shared/catalogue.ts';

/**
 * Alert statistics of home (spec §2): alerts raised per day by level over the last days, and by monitor type. Loaded
 * after the counters have painted (its module and ECharts' parts come with the first chart).
 */

const levelColour = (l: AlertLevel): string => ALERT_LEVEL_COLOURS[l].hex;
const AXIS = { color: 'rgba(0,0,0,0.55)', fontSize: 11 };
const SPLIT = { lineStyle: { color: '#f0f0f0' } };

/** Alerts per day, stacked by level (oldest day first). Test hook: home-chart-days. */
export function AlertDaysChart({ days }: { days: HomeData['alertDays'] }): ReactElement {
  const { t } = useTranslation();
  const option = useMemo<EChartOption>(
    () => ({
      animation: false,
      grid: { left: 8, right: 12, top: 34, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, right: 0, itemWidth: 12, itemHeight: 10, textStyle: { fontSize: 12 } },
      xAxis: {
        type: 'category',
        data: days.map((d) => d.day.slice(5)),
        axisTick: { alignWithLabel: true },
        axisLabel: AXIS,
      },
      yAxis: { type: 'value', minInterval: 1, axisLabel: AXIS, splitLine: SPLIT },
      series: ALERT_LEVELS.map((l) => ({
        type: 'bar' as const,
        name: t(`alerts:levels.${l}`),
        stack: 'level',
        barMaxWidth: 18,
        itemStyle: { color: levelColour(l) },
        emphasis: { focus: 'series' as const },
        data: days.map((d) => d.levels[String(l) as '1'] ?? 0),
      })),
    }),
    [days, t],
  );
  return (
    <EChart
      option={option}
      notMerge
      height={240}
      data-testid="home-chart-days"
      aria-label={t('home:charts.days', { count: days.length })}
    />
  );
}

/** Alerts over the same days by monitor type, stacked by level, the most first. Test hook: home-chart-types. */
export function AlertTypesChart({ types }: { types: HomeData['alertTypes'] }): ReactElement {
  const { t } = useTranslation();
  const mt = useMonitorTypes();
  const rows = useMemo(() => [...types].sort((a, b) => a.total - b.total).slice(-8), [types]);
  const option = useMemo<EChartOption>(
    () => ({
      animation: false,
      grid: { left: 8, right: 16, top: 8, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'value', minInterval: 1, axisLabel: AXIS, splitLine: SPLIT },
      yAxis: {
        type: 'category',
        data: rows.map((r) => (r.moduleId === null ? t('alerts:types.offline') : mt.label(r.moduleId))),
        axisTick: { show: false },
        axisLabel: { ...AXIS, width: 110, overflow: 'truncate' },
      },
      series: ALERT_LEVELS.map((l) => ({
        type: 'bar' as const,
        name: t(`alerts:levels.${l}`),
        stack: 'level',
        barMaxWidth: 14,
        itemStyle: { color: levelColour(l) },
        data: rows.map((r) => r.levels[String(l) as '1'] ?? 0),
      })),
    }),
    [rows, t, mt],
  );
  if (rows.length === 0) return <p className="gs-hc-empty gs-hc-chart-empty">{t('home:charts.noAlerts')}</p>;
  return (
    <EChart option={option} notMerge height={240} data-testid="home-chart-types" aria-label={t('home:charts.types')} />
  );
}

const CLASS_STATES = ['normal', 'alert', 'alarm', 'abnormal', 'offline'] as const;

/**
 * Classification status: devices per monitor type and state, the most devices first. A non-zero count links to the
 * device list of that monitor type and state (when the user may open it). Test hook: home-classification.
 */
export function ClassificationTable({
  rows,
  link,
}: {
  rows: HomeData['classification'];
  link: (moduleId: number, state: (typeof CLASS_STATES)[number]) => string | null;
}): ReactElement {
  const { t } = useTranslation();
  const mt = useMonitorTypes();
  const sorted = useMemo(() => [...rows].sort((a, b) => b.total - a.total), [rows]);
  if (sorted.length === 0) return <p className="gs-hc-empty">{t('home:classification.none')}</p>;
  return (
    <div className="gs-hx-scroll">
      <table className="gs-hx" data-testid="home-classification">
        <thead>
          <tr>
            <th>{t('home:classification.type')}</th>
            <th className="gs-hx-bar" />
            {CLASS_STATES.map((s) => (
              <th key={s} className="gs-hx-num">
                <i style={{ background: SITE_STATE_COLOURS[s] }} />
                {t(`home:states.${s}`)}
              </th>
            ))}
            <th className="gs-hx-num">{t('home:classification.total')}</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={r.moduleId} data-module-id={r.moduleId}>
              <td className="gs-hx-type" title={mt.label(r.moduleId)}>
                {mt.label(r.moduleId)}
              </td>
              <td className="gs-hx-bar" aria-hidden>
                <span className="gs-hx-strip">
                  {CLASS_STATES.filter((s) => r.byState[s] > 0).map((s) => (
                    <i key={s} style={{ flexGrow: r.byState[s], background: SITE_STATE_COLOURS[s] }} />
                  ))}
                </span>
              </td>
              {CLASS_STATES.map((s) => {
                const n = r.byState[s];
                const to = n > 0 ? link(r.moduleId, s) : null;
                return (
                  <td key={s} className={`gs-hx-num${n > 0 && s !== 'normal' ? ' gs-hx-hot' : ''}`}>
                    {to ? <Link to={to}>{n}</Link> : n}
                  </td>
                );
              })}
              <td className="gs-hx-num">
                <b>{r.total}</b>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
