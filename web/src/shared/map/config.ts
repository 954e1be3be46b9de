import { useEffect, useState } from 'react';
import { mapsRoutes, type MapConfig } from '@geosentry/contract';
import { call } from '../api.ts';

/**
 * The map configuration (system settings, issue 21), fetched once per page and shared by every map of the console.
 * Until it arrives maps wait (a Baidu map needs its own CRS from the start); when it cannot be read the maps show
 * the local coordinate grid only, which asks nothing of the internet.
 */
export const GRID_ONLY: MapConfig = {
  type: 'kml',
  mode: 'offline',
  center: { lat: 30.66, lon: 104.07 },
  zoom: 5,
  tileSet: null,
  tiandituReady: false,
  updatedAt: null,
};

let current: MapConfig | null = null;
let pending: Promise<MapConfig> | null = null;
const listeners = new Set<(c: MapConfig) => void>();

export function loadMapConfig(): Promise<MapConfig> {
  if (current) return Promise.resolve(current);
  pending ??= call(mapsRoutes.getConfig, {}, { keepEarlier: true, silent: true })
    .catch(() => GRID_ONLY)
    .then((c) => {
      current = c;
      pending = null;
      for (const l of listeners) l(c);
      return c;
    });
  return pending;
}

/** After the settings were saved: every mounted map rebuilds on the new configuration. */
export function setMapConfig(c: MapConfig): void {
  current = c;
  for (const l of listeners) l(c);
}

export function useMapConfig(): MapConfig | null {
  const [c, setC] = useState<MapConfig | null>(current);
  useEffect(() => {
    listeners.add(setC);
    void loadMapConfig().then(setC);
    return () => {
      listeners.delete(setC);
    };
  }, []);
  return c;
}
