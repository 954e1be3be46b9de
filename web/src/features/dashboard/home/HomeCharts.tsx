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
import { useMonitorTypes } from '../../../shared/catalogue.ts';

/**
 * Alert statistics (spec §2 home) and classification status, drawn as HTML bars: two stacked bar charts do not need
 * ECharts, whose core and parts (about 160 KiB compressed) would take home from 345 KiB to over 500 KiB of script.
 * Each bar says its numbers on hover (a tooltip of CSS, no script) and to screen readers (aria-label).
 */

type Levels = Record<'1' | '2' | '3' | '4', number>;
const levelColour = (l: AlertLevel): string => ALERT_LEVEL_COLOURS[l].hex;
/** Levels drawn bottom-up (blue at the base, red on top) and listed worst first in tooltips. */
const WORST_FIRST = [...ALERT_LEVELS].reverse();

/** A "nice" axis top for a maximum (1, 2, 5 times a power of ten) and its ticks. */
function axisOf(max: number): number[] {
  if (max <= 0) return [0, 1];
  const step0 = max / 4;
  const p = 10 ** Math.floor(Math.log10(step0));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * p).find((s) => s >= step0) ?? p * 10);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return ticks;
}

function Legend(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="gs-hb-legend">
      {ALERT_LEVELS.map((l) => (
        <span key={l}>
          <i style={{ background: levelColour(l) }} />
          {t(`alerts:levels.${l}`)}
        </span>
      ))}
    </div>
  );
}

/** The tooltip of a bar: its title, then each level with alerts. */
function Tip({ title, levels, total }: { title: string; levels: Levels; total: number }): ReactElement {
  const { t } = useTranslation();
  return (
    <span className="gs-hb-tip" role="tooltip">
      <b>{title}</b>
      {WORST_FIRST.filter((l) => levels[String(l) as '1'] > 0).map((l) => (
        <span key={l}>
          <i style={{ background: levelColour(l) }} />
          {t(`alerts:levels.${l}`)} <b>{levels[String(l) as '1']}</b>
        </span>
      ))}
      {total === 0 ? <span>{t('home:charts.none')}</span> : null}
    </span>
  );
}

const describe = (t: (k: string) => string, title: string, levels: Levels): string =>
  `${title}: ${WORST_FIRST.map((l) => `${t(`alerts:levels.${l}`)} ${levels[String(l) as '1']}`).join(', ')}`;

/** Alerts raised per day, stacked by level (oldest day first). Test hook: home-chart-days. */
export function AlertDaysChart({ days }: { days: HomeData['alertDays'] }): ReactElement {
  const { t } = useTranslation();
  const ticks = useMemo(() => axisOf(Math.max(0, ...days.map((d) => d.total))), [days]);
  const top = ticks.at(-1)!;
  // A label every few days (and the last day), so 30 days fit at 1280 px.
  const every = Math.ceil(days.length / 10);
  return (
    <div
      className="gs-hb"
      data-testid="home-chart-days"
      role="group"
      aria-label={t('home:charts.days', { count: days.length })}
    >
      <Legend />
      <div className="gs-hb-plot">
        <div className="gs-hb-yaxis" aria-hidden>
          {ticks.map((v) => (
            <span key={v} style={{ bottom: `${(v / top) * 100}%` }}>
              {v}
            </span>
          ))}
        </div>
        <div className="gs-hb-area">
          {ticks.map((v) => (
            <i key={v} className="gs-hb-grid" style={{ bottom: `${(v / top) * 100}%` }} aria-hidden />
          ))}
          {days.map((d, i) => (
            <div
              key={d.day}
              className="gs-hb-col"
              data-day={d.day}
              data-total={d.total}
              aria-label={describe(t, d.day, d.levels)}
              tabIndex={d.total > 0 ? 0 : -1}
            >
              <span className="gs-hb-stack" style={{ height: `${(d.total / top) * 100}%` }}>
                {ALERT_LEVELS.filter((l) => d.levels[String(l) as '1'] > 0).map((l) => (
                  <i key={l} style={{ flexGrow: d.levels[String(l) as '1'], background: levelColour(l) }} />
                ))}
              </span>
              <Tip title={d.day} levels={d.levels} total={d.total} />
              {i % every === 0 || i === days.length - 1 ? (
                <span className="gs-hb-x" aria-hidden>
                  {d.day.slice(5)}
                </span>
              ) : null}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** Alerts over the same days by monitor type, stacked by level, the most first. Test hook: home-chart-types. */
export function AlertTypesChart({ types }: { types: HomeData['alertTypes'] }): ReactElement {
  const { t } = useTranslation();
  const mt = useMonitorTypes();
  const rows = useMemo(
    () =>
      [...types]
        .filter((r) => r.total > 0)
        .sort((a, b) => b.total - a.total)
        .slice(0, 8),
    [types],
  );
  if (rows.length === 0) return <p className="gs-hc-empty gs-hc-chart-empty">{t('home:charts.noAlerts')}</p>;
  const max = rows[0]!.total;
  return (
    <div className="gs-hb gs-hb-rows" data-testid="home-chart-types">
      <Legend />
      <ol>
        {rows.map((r) => {
          const label = r.moduleId === null ? t('alerts:types.offline') : mt.label(r.moduleId);
          return (
            <li
              key={r.moduleId ?? 'offline'}
              data-module-id={r.moduleId ?? ''}
              aria-label={describe(t, label, r.levels)}
            >
              <span className="gs-hb-label" title={label}>
                {label}
              </span>
              <span className="gs-hb-track">
                <span className="gs-hb-hstack" style={{ width: `${(r.total / max) * 100}%` }}>
                  {ALERT_LEVELS.filter((l) => r.levels[String(l) as '1'] > 0).map((l) => (
                    <i key={l} style={{ flexGrow: r.levels[String(l) as '1'], background: levelColour(l) }} />
                  ))}
                </span>
                <Tip title={label} levels={r.levels} total={r.total} />
              </span>
              <b>{r.total}</b>
            </li>
          );
        })}
      </ol>
    </div>
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
