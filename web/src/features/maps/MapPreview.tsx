import { useEffect, useRef, useState } from 'react';
import type L from 'leaflet';
import type { MapConfig } from '@geosentry/contract';
import { createMap } from '../../shared/map/base.ts';

/**
 * A live preview of a (draft) map configuration: rebuilt when the provider, the mode or the tile set changes (the
 * CRS is fixed at creation), moved when the centre or zoom changes. Test hook: [data-testid="map-preview"].
 */
export function MapPreview({ config, height = 380 }: { config: MapConfig; height?: number }) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const mapRef = useRef<L.Map | null>(null);
  const key = `${config.type}|${config.mode}|${config.tileSet?.id ?? ''}`;
  useEffect(() => {
    if (!el) return;
    const map = createMap(el, config);
    mapRef.current = map;
    const timer = window.setTimeout(() => map.invalidateSize(), 200);
    return () => {
      window.clearTimeout(timer);
      map.remove();
      mapRef.current = null;
    };
    // Rebuilt on what changes the CRS or the tiles; the view follows below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [el, key]);
  useEffect(() => {
    mapRef.current?.setView([config.center.lat, config.center.lon], config.zoom, { animate: false });
  }, [config.center.lat, config.center.lon, config.zoom, key]);
  return (
    <div
      ref={setEl}
      data-testid="map-preview"
      data-provider={config.type}
      style={{ height, borderRadius: 8, overflow: 'hidden', border: '1px solid #e5e7eb', background: '#eef3f8' }}
    />
  );
}
