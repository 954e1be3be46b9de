import { useEffect, useRef, type ReactElement } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useTranslation } from 'react-i18next';
import {
  ALERT_LEVEL_COLOURS,
  SITE_STATE_COLOURS,
  SITE_STATES,
  type AlertLevel,
  type DashboardSite,
  type SiteState,
} from '@geosentry/contract';
import { createMap } from '../../../shared/map/base.ts';
import { useMapConfig } from '../../../shared/map/config.ts';

/** Marker radius by state: the sites that need attention stand out; drawn over the others. */
const RADIUS: Record<SiteState, number> = { alarm: 9, alert: 8, abnormal: 7, offline: 6, normal: 6 };
const ON_TOP: ReadonlySet<SiteState> = new Set(['alarm', 'alert']);

/** The popup of a site, built as elements (site names are user text: never HTML). */
function popupOf(s: DashboardSite, t: (k: string, o?: Record<string, unknown>) => string): HTMLElement {
  const box = document.createElement('div');
  box.className = 'gs-hm-popup';
  box.dataset.testid = 'home-map-popup';
  const name = document.createElement('b');
  name.textContent = s.name;
  const state = document.createElement('div');
  state.className = 'gs-hm-popup-state';
  const dot = document.createElement('i');
  dot.style.background = SITE_STATE_COLOURS[s.state];
  state.append(dot, document.createTextNode(t(`home:states.${s.state}`)));
  const open = document.createElement('div');
  open.className = 'gs-hm-popup-open';
  const levels = ([4, 3, 2, 1] as AlertLevel[]).filter((l) => (s.open[String(l) as '1'] ?? 0) > 0);
  if (levels.length === 0) open.textContent = t('home:map.noOpen');
  else {
    open.append(document.createTextNode(`${t('home:map.open')}: `));
    for (const l of levels) {
      const chip = document.createElement('span');
      chip.style.background = ALERT_LEVEL_COLOURS[l].hex;
      chip.style.color = l === 2 ? '#3b2e00' : '#fff';
      chip.textContent = `${t(`alerts:levels.${l}`)} ${s.open[String(l) as '1']}`;
      open.append(chip);
    }
  }
  box.append(name, state, open);
  return box;
}

/**
 * The sites on a Leaflet map, each a circle in its state's colour (SITE_STATE_COLOURS), with a legend of the states
 * and their counts. A click shows the site's name, state and open alerts, and picks it (the weather card follows).
 * One map for the page's life: markers are kept per site and restyled in place on every update; the view fits the
 * sites when the set of sites changes (a new region), not on a live update.
 * Test hooks: home-map (data-markers), home-map-legend.
 */
export function HomeMap({
  sites,
  counts,
  onPick,
}: {
  sites: readonly DashboardSite[];
  counts: Record<SiteState, number>;
  onPick?: (platformId: number) => void;
}): ReactElement {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const mapConfig = useMapConfig();
  const markers = useRef(new Map<number, L.CircleMarker>());
  const fittedFor = useRef('');
  const pick = useRef(onPick);
  pick.current = onPick;
  const tr = useRef(t);
  tr.current = t;

  useEffect(() => {
    const el = box.current;
    if (!el || !mapConfig) return;
    const map = createMap(el, mapConfig, { preferCanvas: true, scrollWheelZoom: false, noGridLabels: true });
    // Wheel zoom only after a click into the map: the page scrolls past it otherwise.
    map.on('click', () => map.scrollWheelZoom.enable());
    map.on('mouseout', () => map.scrollWheelZoom.disable());
    mapRef.current = map;
    const ro = new ResizeObserver(() => map.invalidateSize({ animate: false }));
    ro.observe(el);
    const all = markers.current;
    return () => {
      ro.disconnect();
      map.remove();
      mapRef.current = null;
      all.clear();
      fittedFor.current = '';
    };
  }, [mapConfig]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const placed = sites.filter((s) => s.lat !== null && s.lon !== null);
    const seen = new Set<number>();
    for (const s of placed) {
      seen.add(s.platformId);
      const colour = SITE_STATE_COLOURS[s.state];
      const style: L.CircleMarkerOptions = {
        radius: RADIUS[s.state],
        color: '#ffffff',
        weight: 1.5,
        fillColor: colour,
        fillOpacity: 0.9,
      };
      let m = markers.current.get(s.platformId);
      if (!m) {
        m = L.circleMarker([s.lat!, s.lon!], style).addTo(map);
        m.on('click', () => pick.current?.(s.platformId));
        markers.current.set(s.platformId, m);
      } else {
        m.setLatLng([s.lat!, s.lon!]);
        m.setStyle(style);
      }
      // Contents replaced in place: a popup open during a live update stays open.
      const popup = m.getPopup();
      if (popup) popup.setContent(popupOf(s, tr.current));
      else m.bindPopup(popupOf(s, tr.current), { closeButton: false, offset: [0, -4] });
      const tip = m.getTooltip();
      if (tip) tip.setContent(s.name);
      else m.bindTooltip(s.name, { direction: 'top', offset: [0, -6] });
      if (ON_TOP.has(s.state)) m.bringToFront();
    }
    for (const [id, m] of markers.current)
      if (!seen.has(id)) {
        m.remove();
        markers.current.delete(id);
      }
    const key = placed
      .map((s) => s.platformId)
      .sort((a, b) => a - b)
      .join(',');
    if (key !== fittedFor.current && placed.length > 0) {
      const points = placed.map((s) => L.latLng(s.lat!, s.lon!));
      if (points.length === 1) map.setView(points[0]!, 11, { animate: false });
      else map.fitBounds(L.latLngBounds(points).pad(0.12), { maxZoom: 12, animate: false });
      fittedFor.current = key;
    }
  }, [sites, t, mapConfig]);

  const unplaced = sites.filter((s) => s.lat === null || s.lon === null).length;
  return (
    <div className="gs-hm">
      <div ref={box} className="gs-hm-map" data-testid="home-map" data-markers={sites.length - unplaced} />
      <div className="gs-hm-legend" data-testid="home-map-legend">
        {SITE_STATES.map((s) => (
          <span key={s} data-state={s}>
            <i style={{ background: SITE_STATE_COLOURS[s] }} />
            {t(`home:states.${s}`)}
            <b>{counts[s]}</b>
          </span>
        ))}
        {unplaced > 0 ? <em>{t('home:map.unplaced', { count: unplaced })}</em> : null}
      </div>
    </div>
  );
}
