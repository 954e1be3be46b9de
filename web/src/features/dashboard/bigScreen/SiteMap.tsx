import { useEffect, useRef, type ReactElement } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { SITE_STATE_COLOURS, SITE_STATES, type DashboardSite, type SiteState } from '@geosentry/contract';
import { createMap } from '../../../shared/map/base.ts';
import { useMapConfig } from '../../../shared/map/config.ts';

/** Marker radius by state: the sites that need attention stand out. */
const RADIUS: Record<SiteState, number> = { alarm: 11, alert: 10, abnormal: 8, offline: 7, normal: 7 };
/** Drawing order: alarm on top. */
const Z: Record<SiteState, number> = { alarm: 5, alert: 4, abnormal: 3, offline: 2, normal: 1 };

/**
 * The sites on a Leaflet map, each a circle in its state's colour (SITE_STATE_COLOURS), with a legend. One map for
 * the page's life: markers are kept per site and restyled in place when the states change (no new layers per
 * update). Sites in alert or alarm carry their name permanently (a wall has no mouse). `focus`: a site to centre on
 * (the duty screen's current site), drawn with a ring; otherwise the map fits all sites once they are known.
 */
export function SiteMap({
  sites,
  focus,
  stateLabel,
  counts,
  onPick,
}: {
  sites: readonly DashboardSite[];
  focus?: number | null;
  stateLabel: (s: SiteState) => string;
  /** Sites by state, shown in the legend. */
  counts: Record<SiteState, number>;
  onPick?: (platformId: number) => void;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const mapConfig = useMapConfig();
  const markers = useRef(new Map<number, { m: L.CircleMarker; state: SiteState; labelled: boolean }>());
  const fitted = useRef(false);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const el = box.current;
    if (!el || !mapConfig) return;
    const map = createMap(el, mapConfig, {
      zoomControl: false,
      attributionControl: true,
      preferCanvas: true,
      noGridLabels: true,
    });
    mapRef.current = map;
    const ro = new ResizeObserver(() => map.invalidateSize({ animate: false }));
    ro.observe(el);
    const all = markers.current;
    return () => {
      ro.disconnect();
      map.remove();
      mapRef.current = null;
      all.clear();
      fitted.current = false;
    };
  }, [mapConfig]);

  // Markers: added, restyled or removed to match the sites.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const seen = new Set<number>();
    for (const s of sites) {
      if (s.lat === null || s.lon === null) continue;
      seen.add(s.platformId);
      const colour = SITE_STATE_COLOURS[s.state];
      const focused = focus === s.platformId;
      const style: L.CircleMarkerOptions = {
        radius: RADIUS[s.state] + (focused ? 4 : 0),
        color: focused ? '#ffffff' : colour,
        weight: focused ? 3 : 1.5,
        fillColor: colour,
        fillOpacity: 0.85,
      };
      const label = focused || s.state === 'alarm' || s.state === 'alert';
      let entry = markers.current.get(s.platformId);
      if (!entry) {
        const m = L.circleMarker([s.lat, s.lon], style).addTo(map);
        m.on('click', () => pick.current?.(s.platformId));
        entry = { m, state: s.state, labelled: false };
        markers.current.set(s.platformId, entry);
      } else {
        entry.m.setLatLng([s.lat, s.lon]);
        entry.m.setStyle(style);
      }
      entry.state = s.state;
      if (label !== entry.labelled || (label && entry.m.getTooltip()?.getContent() !== s.name)) {
        entry.m.unbindTooltip();
        entry.m.bindTooltip(s.name, {
          permanent: label,
          direction: 'top',
          offset: [0, -8],
          className: label ? 'bs-map-label' : 'bs-map-tip',
        });
        entry.labelled = label;
      }
      if (Z[s.state] >= 4 || focused) entry.m.bringToFront();
    }
    for (const [id, entry] of markers.current)
      if (!seen.has(id)) {
        entry.m.remove();
        markers.current.delete(id);
      }
    const focused = focus ? sites.find((s) => s.platformId === focus && s.lat !== null && s.lon !== null) : null;
    if (focused) {
      map.setView([focused.lat!, focused.lon!], Math.max(map.getZoom(), 9), { animate: false });
    } else if (!fitted.current && seen.size > 0) {
      const points = sites.filter((s) => s.lat !== null && s.lon !== null).map((s) => L.latLng(s.lat!, s.lon!));
      if (points.length === 1) map.setView(points[0]!, 11, { animate: false });
      else map.fitBounds(L.latLngBounds(points).pad(0.15), { maxZoom: 12, animate: false });
      fitted.current = true;
    }
  }, [sites, focus, mapConfig]);

  return (
    <div className="bs-map-wrap">
      <div ref={box} className="bs-map" data-testid="big-screen-map" data-markers={sites.length} />
      <div className="bs-legend" data-testid="big-screen-legend">
        {SITE_STATES.map((s) => (
          <span key={s} className="bs-legend-item" data-state={s}>
            <i style={{ background: SITE_STATE_COLOURS[s] }} />
            {stateLabel(s)}
            <b>{counts[s]}</b>
          </span>
        ))}
      </div>
    </div>
  );
}
