import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { SITE_STATE_COLOURS, type DeviceAndData } from '@geosentry/contract';
import { SEVERITY, siteCounts } from './CommonScreen.tsx';
import { Header } from './Header.tsx';
import { RankingBoard, type RankRow } from './RankingBoard.tsx';
import { SiteMap } from './SiteMap.tsx';
import { WaterPond } from './WaterPond.tsx';
import { useBigScreen, useWeather, type LiveCurve } from './live.ts';
import { AlarmCurves, AlertTicker, OpenAlerts, Panel, ReservoirLevels } from './widgets.tsx';
import { withUnit, type Words } from './words.ts';

/** How long each site stays on the duty screen before the next one. */
export const DUTY_CYCLE_MS = 20_000;
/** Device state ranks for the device board: alarm first. */
const DEVICE_RANK = { alarm: 4, alert: 3, abnormal: 2, offline: 1, normal: 0 } as const;

/** The board's rows: each device's quantities with their newest values, the devices in alarm first. */
function deviceRows(devices: readonly DeviceAndData[], words: Words): RankRow[] {
  const rows: RankRow[] = [];
  for (const d of devices) {
    const keys = Object.keys(d.values);
    if (keys.length === 0) {
      rows.push({
        key: `${d.deviceId}`,
        name: d.deviceName,
        rank: DEVICE_RANK[d.state],
        value: words.state(d.state),
        colour: SITE_STATE_COLOURS[d.state],
      });
      continue;
    }
    for (const k of keys.slice(0, 3)) {
      const q = words.quantity(k);
      rows.push({
        key: `${d.deviceId}:${k}`,
        name: `${d.deviceName} · ${q.label}`,
        rank: DEVICE_RANK[d.state],
        value: withUnit(d.values[k], d.units[k] ?? q.unit),
        colour: SITE_STATE_COLOURS[d.state],
      });
    }
  }
  return rows;
}

/**
 * The `xqh` variant (holders of digitalGallery without :common): a duty screen for the people who look after a few
 * sites. It does not rank the network; it cycles through the sites of the user's scope, those in alarm and alert
 * first, DUTY_CYCLE_MS each (a click on the map or the list holds a site for a cycle), and shows the current one:
 * its state and devices by state, its water pond (a reservoir's level as a percent of its flood level, else its
 * devices' online rate), its devices' newest values (live), its weather, its open alerts and alerts, and the curves
 * of its devices in alarm. See docs/decisions.md "Big screen: two variants".
 */
export function DutyScreen({ words }: { words: Words }): ReactElement {
  const { t } = words;
  const [current, setCurrent] = useState<number | null>(null);
  const [started, setStarted] = useState(() => Date.now());
  // Live events of every site in scope (the list and the map stay current), the current site's devices.
  const first = useBigScreen('all', current);
  const data = first.data;
  // The sites in cycle order: most severe first, then by name (taken afresh with every answer).
  const order = useMemo(
    () =>
      [...(data?.sites ?? [])].sort(
        (a, b) => SEVERITY[a.state] - SEVERITY[b.state] || a.name.localeCompare(b.name) || a.platformId - b.platformId,
      ),
    [data],
  );
  useEffect(() => {
    if (order.length === 0) return;
    if (current === null || !order.some((s) => s.platformId === current)) {
      setCurrent(order[0]!.platformId);
      setStarted(Date.now());
    }
  }, [order, current]);
  // Next site every DUTY_CYCLE_MS; a countdown in the header.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  useEffect(() => {
    if (order.length < 2 || now - started < DUTY_CYCLE_MS) return;
    const i = order.findIndex((s) => s.platformId === current);
    setCurrent(order[(i + 1) % order.length]!.platformId);
    setStarted(now);
  }, [now, started, order, current]);
  const pick = (id: number): void => {
    setCurrent(id);
    setStarted(Date.now());
  };

  const site = order.find((s) => s.platformId === current) ?? null;
  const weather = useWeather(current);
  const devices = useMemo(() => first.devices ?? [], [first.devices]);
  const counts = useMemo(() => siteCounts(data?.sites ?? []), [data]);
  const rows = useMemo(() => deviceRows(devices, words), [devices, words]);
  const ids = useMemo(() => new Set(devices.map((d) => d.deviceId)), [devices]);
  const curves = useMemo(() => {
    const m = new Map<number, LiveCurve>();
    for (const [id, c] of first.curves) if (ids.has(id)) m.set(id, c);
    return m;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the curves change in place: curveVersion says when
  }, [first.curveVersion, ids]);
  const alerts = useMemo(() => (data?.latestAlerts ?? []).filter((a) => a.platformId === current), [data, current]);
  const reservoir = data?.reservoirs.find((r) => r.platformId === current) ?? null;
  const total = site ? Object.values(site.devices).reduce((a, b) => a + b, 0) : 0;
  const onlineRate = site && total > 0 ? Math.round(((total - site.devices.offline) / total) * 1000) / 10 : null;
  const pond = reservoir?.percentOfFlood ?? null;
  const position = order.findIndex((s) => s.platformId === current) + 1;
  const left = Math.max(0, Math.ceil((DUTY_CYCLE_MS - (now - started)) / 1000));

  return (
    <div className="bs-screen bs-duty" data-testid="big-screen" data-variant="xqh" data-ready={data ? 'true' : 'false'}>
      <Header
        subtitle={t('titleDuty')}
        weather={weather}
        connected={first.connected}
        updatedAt={first.updatedAt}
        words={words}
      />
      <div className="bs-col bs-left">
        <Panel
          title={t('panel.site')}
          extra={
            order.length > 1
              ? `${t('cycle.position', { n: position, total: order.length })} · ${t('cycle.next', { s: left })}`
              : undefined
          }
          testId="panel-site"
        >
          {site ? (
            <div className="bs-site" data-testid="duty-site" data-platform-id={site.platformId}>
              <div className="bs-site-name">
                <i style={{ background: SITE_STATE_COLOURS[site.state] }} />
                <span>{site.name}</span>
              </div>
              <div className="bs-site-meta">
                {words.type(site.type)} ·{' '}
                <b style={{ color: SITE_STATE_COLOURS[site.state] }} data-testid="duty-site-state">
                  {words.state(site.state)}
                </b>
              </div>
              <div className="bs-site-states">
                {(['alarm', 'alert', 'abnormal', 'offline', 'normal'] as const).map((s) => (
                  <span key={s}>
                    <i style={{ background: SITE_STATE_COLOURS[s] }} />
                    {words.state(s)} <b>{site.devices[s]}</b>
                  </span>
                ))}
              </div>
            </div>
          ) : (
            <div className="bs-empty">{t('noSites')}</div>
          )}
        </Panel>
        <Panel title={pond !== null ? t('panel.reservoirPond') : t('panel.siteOnline')} testId="panel-pond">
          <div className="bs-online">
            <WaterPond value={pond ?? onlineRate} size={170} testId="duty-pond" />
            {reservoir ? (
              <ReservoirLevels rows={[reservoir]} words={words} />
            ) : (
              <div className="bs-online-counts">
                <div>
                  <em>{t('counts.total')}</em>
                  <b>{total}</b>
                </div>
                <div>
                  <em>{t('counts.online')}</em>
                  <b className="bs-ok">{site ? total - site.devices.offline : '-'}</b>
                </div>
                <div>
                  <em>{t('counts.offline')}</em>
                  <b className="bs-off">{site?.devices.offline ?? '-'}</b>
                </div>
              </div>
            )}
          </div>
        </Panel>
        <Panel title={t('panel.openAlerts')} testId="panel-open">
          <OpenAlerts open={site?.open ?? {}} words={words} />
        </Panel>
        <Panel title={t('panel.sites')} className="bs-grow" testId="panel-sites">
          <ol className="bs-site-list" data-testid="duty-sites">
            {order.slice(0, 6).map((s) => (
              <li
                key={s.platformId}
                className={s.platformId === current ? 'bs-current' : undefined}
                onClick={() => pick(s.platformId)}
              >
                <i style={{ background: SITE_STATE_COLOURS[s.state] }} />
                <span>{s.name}</span>
                <em>{words.state(s.state)}</em>
              </li>
            ))}
          </ol>
        </Panel>
      </div>
      <div className="bs-col bs-centre">
        <Panel
          title={t('panel.map')}
          extra={`${t('counts.sites')} ${order.length}`}
          className="bs-map-panel"
          testId="panel-map"
        >
          <SiteMap sites={order} focus={current} stateLabel={words.state} counts={counts} onPick={pick} />
        </Panel>
        <Panel title={t('panel.devices')} className="bs-ticker-panel" testId="panel-devices">
          <RankingBoard
            rows={rows}
            header={[t('rank.name'), t('rank.value')]}
            height={262}
            empty={t('noDevices')}
            testId="device-board"
          />
        </Panel>
      </div>
      <div className="bs-col bs-right">
        <Panel title={t('panel.siteAlerts')} className="bs-res-panel" testId="panel-site-alerts">
          <AlertTicker alerts={alerts} words={words} rows={4} />
        </Panel>
        <Panel title={t('panel.siteCurves')} className="bs-grow" testId="panel-curves">
          <AlarmCurves curves={curves} version={first.curveVersion} words={words} height={430} />
        </Panel>
      </div>
    </div>
  );
}
