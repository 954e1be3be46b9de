import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Card, Flex, Select, Switch, Typography, message } from 'antd';
import { DragOutlined } from '@ant-design/icons';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { DEVICE_STATES, type ViewDevice } from '@geosentry/contract';
import { usePermission } from '../../shared/session.ts';
import { DEFAULT_CENTER } from '../../shared/map/tiles.ts';
import { addMapLayers, createMap } from '../../shared/map/base.ts';
import { useMapConfig } from '../../shared/map/config.ts';
import { ClusterLayer } from '../../shared/map/cluster.ts';
import { SiteLayersButton } from '../maps/index.ts';

/** Over this many devices the map clusters them. */
const CLUSTER_OVER = 500;
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { LiveStatus, NoSite, ViewSitePicker, ViewToolbar, fmtTime, fmtValue, useMainValue } from './common.tsx';
import { STATE_COLORS, shownQuantities, useSiteOverview, useViewSite } from './live.ts';
import { savePlacement, viewKeys } from './viewsApi.ts';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Where a device is drawn: its own lon/lat, else on a ring around the site (12 per ring, about 150 m apart),
 * so that unplaced devices are still visible and can be dragged to their place.
 */
export function ringPosition(center: [number, number], index: number, total: number): [number, number] {
  const ring = Math.floor(index / 12);
  const inRing = index % 12;
  const slots = Math.min(12, total - ring * 12);
  const r = 0.0015 * (ring + 1);
  const a = (2 * Math.PI * inRing) / slots + ring * 0.26 + Math.PI / 2;
  const lat = center[0] + r * Math.sin(a);
  const lon = center[1] + (r * Math.cos(a)) / Math.max(0.2, Math.cos((center[0] * Math.PI) / 180));
  return [lat, lon];
}

/**
 * Monitor > device distribution (moduleMap): the site's devices on a map, coloured by state, with their newest
 * values in a popup; filter by monitor type. Devices without coordinates sit on a ring around the site (dashed
 * outline) until placed; in edit mode markers are dragged and the place is saved. Test hooks: module-map,
 * module-map-type, module-map-edit, markers carry data-device-id.
 */
export default function ModuleMapPage() {
  const { t } = useTranslation('monitorViews');
  const { t: td } = useTranslation('devices');
  const types = useMonitorTypes();
  const mainValue = useMainValue();
  const mayEdit = usePermission('monitor:moduleMap');
  const qc = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const { sites, platformId, setPlatformId, loading } = useViewSite();
  const live = useSiteOverview(platformId);
  const o = live.overview;
  const [moduleId, setModuleId] = useState<number | undefined>();
  const [edit, setEdit] = useState(false);
  /** Bumped when the site's layers change: they are drawn again. */
  const [layersVersion, setLayersVersion] = useState(0);
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const mapRef = useRef<L.Map | null>(null);
  const mapConfig = useMapConfig();
  const layerRef = useRef<L.LayerGroup | null>(null);
  const fittedFor = useRef<number | null>(null);

  useEffect(() => setModuleId(undefined), [platformId]);

  const save = useMutation({
    mutationFn: (p: { deviceId: number; lat: number; lon: number }) =>
      savePlacement({ deviceId: p.deviceId, lon: p.lon, lat: p.lat }),
    onSuccess: () => {
      void msg.success(t('map.saved'));
      void qc.invalidateQueries({ queryKey: viewKeys.overview(platformId) });
    },
  });

  // The map lives with its container.
  useEffect(() => {
    if (!el || !mapConfig) return;
    const map = createMap(el, mapConfig);
    L.control.scale({ imperial: false }).addTo(map);
    layerRef.current = L.layerGroup().addTo(map);
    mapRef.current = map;
    const timer = window.setTimeout(() => map.invalidateSize(), 200);
    return () => {
      window.clearTimeout(timer);
      map.remove();
      mapRef.current = null;
      layerRef.current = null;
      fittedFor.current = null;
    };
  }, [el, mapConfig]);

  // The site's own map layers (imported KML/KMZ/GeoJSON) over the tiles.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || platformId === undefined) return;
    let dead = false;
    let group: L.LayerGroup | null = null;
    void addMapLayers(map, platformId).then((g) => {
      if (dead) g.remove();
      else group = g;
    });
    return () => {
      dead = true;
      group?.remove();
    };
  }, [platformId, mapConfig, el, layersVersion]);

  const shown = useMemo(
    () => live.devices.filter((d) => moduleId === undefined || d.moduleId === moduleId),
    [live.devices, moduleId],
  );
  const center: [number, number] | null = o && o.lat !== null && o.lon !== null ? [o.lat, o.lon] : null;

  // Markers follow the devices, the filter and the edit mode.
  useEffect(() => {
    const map = mapRef.current;
    const layer = layerRef.current;
    if (!map || !layer || !o) return;
    layer.clearLayers();
    const base = center ?? DEFAULT_CENTER;
    const points: L.LatLng[] = [];
    if (center) {
      L.marker(center, {
        icon: L.divIcon({
          className: '',
          html: '<div class="gs-map-site"></div>',
          iconSize: [20, 20],
          iconAnchor: [10, 10],
        }),
        title: o.name,
        zIndexOffset: -100,
      })
        .bindTooltip(`<b>${esc(o.name)}</b>`, {
          direction: 'top',
          offset: [0, -12],
          permanent: true,
          className: 'gs-map-label',
        })
        .addTo(layer);
      points.push(L.latLng(center));
    }
    // Thousands of devices: clustered on one canvas (shared/map/cluster.ts), not a marker each.
    if (shown.length > CLUSTER_OVER) {
      const placedDevices = shown.filter((d) => d.lat !== null && d.lon !== null);
      const cluster = new ClusterLayer(
        placedDevices.map((d) => ({
          id: d.deviceId,
          lat: d.lat!,
          lon: d.lon!,
          colour: STATE_COLORS[d.state],
          rank: { normal: 0, offline: 1, abnormal: 2, alert: 3, alarm: 4 }[d.state],
        })),
      );
      cluster.addTo(layer);
      for (const d of placedDevices) points.push(L.latLng(d.lat!, d.lon!));
      if (fittedFor.current !== o.platformId && points.length > 1) {
        fittedFor.current = o.platformId;
        map.fitBounds(L.latLngBounds(points).pad(0.1), { maxZoom: 17 });
      }
      return;
    }
    let ringIndex = 0;
    const unplaced = shown.filter((d) => d.lat === null || d.lon === null).length;
    // Names and main values stay shown while the map is not crowded.
    const labelled = shown.length <= 40;
    for (const d of shown) {
      const own = d.lat !== null && d.lon !== null;
      const at: [number, number] = own ? [d.lat!, d.lon!] : ringPosition(base, ringIndex++, unplaced);
      const html = `<div class="gs-map-pin" data-device-id="${d.deviceId}" data-state="${d.state}" style="background:${STATE_COLORS[d.state]}"></div>`;
      const m = L.marker(at, {
        icon: L.divIcon({ className: '', html, iconSize: [18, 18], iconAnchor: [9, 9] }),
        draggable: edit,
        title: d.deviceName,
      });
      const label = `${own ? '' : '≈ '}${esc(d.deviceName)} <b>${esc(mainValue(d))}</b>`;
      m.bindTooltip(label, {
        direction: 'right',
        offset: [10, 0],
        permanent: labelled,
        className: 'gs-map-label',
      });
      m.bindPopup(() => popupHtml(d), { className: 'gs-map-popup' });
      m.on('dragend', () => {
        const ll = m.getLatLng().wrap();
        save.mutate({ deviceId: d.deviceId, lat: Math.round(ll.lat * 1e6) / 1e6, lon: Math.round(ll.lng * 1e6) / 1e6 });
      });
      m.addTo(layer);
      points.push(L.latLng(at));
    }
    if (fittedFor.current !== o.platformId) {
      fittedFor.current = o.platformId;
      if (points.length > 1) map.fitBounds(L.latLngBounds(points).pad(0.3), { maxZoom: 17 });
      else map.setView(base, center ? 15 : 5);
    }
    // popupHtml reads the translations of the moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [o, shown, edit, center?.[0], center?.[1], mapConfig]);

  function popupHtml(d: ViewDevice): string {
    const qs = types.quantities(d.moduleId);
    const rows = shownQuantities(d, true)
      .map((k) => {
        const q = qs.find((x) => x.key === k);
        return `<tr><td style="color:#888;padding-right:10px">${esc(q?.text ?? k)}</td><td><b>${esc(fmtValue(d.lastValues[k]))}</b> ${esc(q?.unit ?? '')}</td></tr>`;
      })
      .join('');
    return `<div data-testid="module-map-popup"><div style="font-weight:600;font-size:14px">${esc(d.deviceName)}</div>
      <div style="color:#888;margin-bottom:4px">${esc(types.label(d.moduleId))} · ${esc(d.number)}</div>
      <div style="margin-bottom:6px"><span style="display:inline-block;width:9px;height:9px;border-radius:50%;background:${STATE_COLORS[d.state]};margin-right:6px"></span>${esc(td(`state.${d.state}`))}</div>
      <table>${rows || `<tr><td>${esc(t('device.noData'))}</td></tr>`}</table>
      <div style="color:#888;margin-top:6px;font-size:12px">${esc(t('col.lastReading'))}: ${esc(fmtTime(d.lastReadingAt))}</div>
      ${d.lat === null ? `<div style="color:#888;font-size:12px">${esc(t('map.notPlaced'))}</div>` : ''}</div>`;
  }

  const counts = useMemo(() => {
    const c = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as Record<string, number>;
    for (const d of shown) c[d.state]! += 1;
    return c;
  }, [shown]);

  return (
    <div className="gs-view-page" data-testid="view-module-map">
      {msgHolder}
      <ViewToolbar
        extra={
          <>
            <LiveStatus connected={live.connected} supported={live.supported} />
            {platformId !== undefined ? (
              <SiteLayersButton platformId={platformId} onChanged={() => setLayersVersion((v) => v + 1)} />
            ) : null}
            {mayEdit ? (
              <Flex gap={6} align="center">
                <DragOutlined />
                <Typography.Text>{t('map.edit')}</Typography.Text>
                <Switch checked={edit} onChange={setEdit} data-testid="module-map-edit" disabled={!o} />
              </Flex>
            ) : null}
          </>
        }
      >
        <ViewSitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={loading} />
        <Select<number>
          id="module-map-type"
          data-testid="module-map-type"
          allowClear
          style={{ width: 220 }}
          placeholder={t('pick.allTypes')}
          value={moduleId}
          onChange={(v) => setModuleId(v ?? undefined)}
          options={(o?.moduleIds ?? []).map((m) => ({ value: m, label: types.label(m) }))}
        />
      </ViewToolbar>
      {platformId === undefined ? <NoSite loading={loading} /> : null}
      <Card size="small" styles={{ body: { padding: 0, position: 'relative' } }} hidden={platformId === undefined}>
        <div
          ref={setEl}
          className="gs-map"
          style={{ height: 'calc(100vh - 250px)', minHeight: 360 }}
          data-testid="module-map"
        />
        <div className="gs-map-legend" data-testid="module-map-legend">
          {DEVICE_STATES.map((s) => (
            <Flex key={s} align="center" gap={6}>
              <span style={{ width: 10, height: 10, borderRadius: '50%', background: STATE_COLORS[s] }} />
              <span style={{ flex: 1 }}>{td(`state.${s}`)}</span>
              <b>{counts[s]}</b>
            </Flex>
          ))}
          {edit ? <div style={{ marginTop: 6, maxWidth: 180, color: '#666' }}>{t('map.editHelp')}</div> : null}
        </div>
      </Card>
    </div>
  );
}
