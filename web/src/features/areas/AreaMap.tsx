import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import type { AreaDevice, AreaPoint } from '@geosentry/contract';
import { createMap } from '../maps/index.ts';
import { useMapConfig } from '../maps/index.ts';
import { levelColour } from './common.tsx';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * An area on the configured map: its polygon filled in its level's colour, its devices coloured by their level
 * (name labels), and in edit mode a click adds a vertex. Fits the polygon when it first shows (or `fitKey` changes).
 * Test hooks: [data-testid="area-map"] with data-level, device markers .gs-area-dev[data-device-id].
 */
export function AreaMap({
  points,
  devices = [],
  level = 0,
  editable = false,
  onAdd,
  fitKey,
  height = 420,
}: {
  points: AreaPoint[];
  devices?: AreaDevice[];
  level?: number;
  editable?: boolean;
  onAdd?: (p: AreaPoint) => void;
  fitKey?: string | number;
  height?: number | string;
}) {
  const config = useMapConfig();
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  const addRef = useRef(onAdd);
  addRef.current = onAdd;
  const fitted = useRef<string | number | undefined>(undefined);

  useEffect(() => {
    if (!el || !config) return;
    const map = createMap(el, config);
    layerRef.current = L.layerGroup().addTo(map);
    map.on('click', (e: L.LeafletMouseEvent) => {
      const ll = e.latlng.wrap();
      addRef.current?.({ lat: Math.round(ll.lat * 1e6) / 1e6, lon: Math.round(ll.lng * 1e6) / 1e6 });
    });
    mapRef.current = map;
    fitted.current = undefined;
    const ro = new ResizeObserver(() => map.invalidateSize({ animate: false }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      map.remove();
      mapRef.current = null;
      layerRef.current = null;
    };
  }, [el, config]);

  useEffect(() => {
    const map = mapRef.current;
    const layer = layerRef.current;
    if (!map || !layer) return;
    layer.clearLayers();
    const colour = levelColour(level);
    const lls = points.map((p) => L.latLng(p.lat, p.lon));
    if (lls.length >= 3)
      L.polygon(lls, { color: colour, weight: 3, fillColor: colour, fillOpacity: level > 0 ? 0.3 : 0.15 }).addTo(layer);
    else if (lls.length === 2) L.polyline(lls, { color: colour, weight: 3, dashArray: '6 4' }).addTo(layer);
    if (editable)
      for (const [i, ll] of lls.entries())
        L.circleMarker(ll, { radius: 5, color: '#fff', weight: 2, fillColor: '#1677ff', fillOpacity: 1 })
          .bindTooltip(String(i + 1), { permanent: false })
          .addTo(layer);
    for (const d of devices) {
      const html = `<div class="gs-area-dev" data-device-id="${d.deviceId}" data-level="${d.level}" style="width:14px;height:14px;border-radius:50%;border:2px solid #fff;box-shadow:0 0 0 1px rgba(0,0,0,.3);background:${levelColour(d.level)}"></div>`;
      L.marker([d.lat, d.lon], { icon: L.divIcon({ className: '', html, iconSize: [14, 14], iconAnchor: [7, 7] }) })
        .bindTooltip(esc(d.deviceName), {
          direction: 'right',
          offset: [8, 0],
          permanent: devices.length <= 30,
          className: 'gs-map-label',
        })
        .addTo(layer);
    }
    const key = fitKey ?? 'x';
    if (fitted.current !== key && lls.length >= 2) {
      map.fitBounds(L.latLngBounds(lls).pad(0.25), { animate: false, maxZoom: 17 });
      fitted.current = key;
    }
  }, [points, devices, level, editable, fitKey, config]);

  return (
    <div
      ref={setEl}
      data-testid="area-map"
      data-level={level}
      style={{
        height,
        borderRadius: 8,
        overflow: 'hidden',
        border: '1px solid #e5e7eb',
        background: '#eef3f8',
        cursor: editable ? 'crosshair' : undefined,
      }}
    />
  );
}
