import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { ONLINE_TILES, mapsRoutes, type MapConfig, type MapFeatureCollection } from '@geosentry/contract';
import { getToken } from '../storage.ts';
import { call } from '../api.ts';
import { GraticuleLabels, GraticuleLayer } from './graticule.ts';
import { baiduRow, crsOf } from './crs.ts';

export interface CreateMapOptions extends L.MapOptions {
  /** An XYZ tile template overriding the configured tiles (e.g. a test's). */
  tileUrl?: string | undefined;
  /** Called when tiles fail to load repeatedly (true) or load again (false). */
  onTilesFailed?: (failed: boolean) => void;
  /** No coordinate labels (small maps). */
  noGridLabels?: boolean;
}

const ATTRIBUTION: Record<string, string> = {
  tianditu: '&copy; 天地图 Tianditu',
  amap: '&copy; 高德地图 Amap',
  google: '&copy; Google',
  baidu: '&copy; 百度地图 Baidu',
  kml: '',
};

const q = (o: Record<string, string | number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** A tile layer in the configured provider's scheme (Baidu rows flipped). */
function tileLayer(template: string, baidu: boolean, opts: L.TileLayerOptions): L.TileLayer {
  if (!baidu) return L.tileLayer(template, opts);
  const layer = L.tileLayer(template, opts);
  layer.getTileUrl = function (this: L.TileLayer, c: L.Coords): string {
    return L.Util.template(template, {
      s: (this as unknown as { _getSubdomain(c: L.Coords): string })._getSubdomain(c),
      x: c.x,
      y: baiduRow(c.y),
      z: c.z,
    });
  };
  return layer;
}

/** The tile layers of a configuration: offline from the server's tile set, online from the provider. */
export function baseTileLayers(config: MapConfig, override?: string): L.TileLayer[] {
  const baidu = config.type === 'baidu';
  const common: L.TileLayerOptions = { zIndex: 1, maxZoom: 19, attribution: ATTRIBUTION[config.type] ?? '' };
  const token = getToken() ?? '';
  if (override) return [L.tileLayer(override, { ...common, attribution: '' })];
  if (config.mode === 'offline') {
    const set = config.tileSet;
    if (!set) return [];
    const url = `${mapsRoutes.tile.path}?${q({ set: set.id, token })}&z={z}&x={x}&y={y}`;
    return [
      tileLayer(url, baidu, {
        ...common,
        attribution: `${ATTRIBUTION[set.provider] ?? ''} · ${set.name.replace(/[<>&"]/g, '')}`,
        minNativeZoom: set.minZoom,
        maxNativeZoom: set.maxZoom,
      }),
    ];
  }
  if (config.type === 'kml') return [];
  if (config.type === 'tianditu') {
    const url = (layer: string) => `${mapsRoutes.tianditu.path}?${q({ layer, token })}&z={z}&x={x}&y={y}`;
    return [
      L.tileLayer(url('vec'), { ...common, maxNativeZoom: 18 }),
      L.tileLayer(url('cva'), { ...common, zIndex: 2, maxNativeZoom: 18, attribution: '' }),
    ];
  }
  const t = ONLINE_TILES[config.type];
  return [tileLayer(t.url, baidu, { ...common, subdomains: t.subdomains, maxNativeZoom: 18 })];
}

/**
 * Draws GeoJSON layers (imported KML/KMZ/GeoJSON) with their names (tooltips) and styles. Returns the group.
 */
export function featureLayer(fc: MapFeatureCollection): L.GeoJSON {
  return L.geoJSON(fc as unknown as GeoJSON.FeatureCollection, {
    style: (f) => {
      const s = (f?.properties as { style?: Record<string, number | string | null> } | undefined)?.style ?? {};
      return {
        color: (s.color as string | null) ?? '#1677ff',
        weight: (s.weight as number | null) ?? 2,
        opacity: (s.opacity as number | null) ?? 0.9,
        fillColor: (s.fillColor as string | null) ?? (s.color as string | null) ?? '#1677ff',
        fillOpacity: (s.fillOpacity as number | null) ?? 0.2,
      };
    },
    pointToLayer: (f, ll) => {
      const s = (f.properties as { style?: { color?: string | null } }).style;
      return L.circleMarker(ll, {
        radius: 6,
        weight: 2,
        color: '#fff',
        fillColor: s?.color ?? '#722ed1',
        fillOpacity: 1,
      });
    },
    onEachFeature: (f, layer) => {
      const name = (f.properties as { name?: string | null }).name;
      if (name) layer.bindTooltip(name.replace(/[<>&]/g, ''), { className: 'gs-map-label', sticky: true });
    },
  });
}

/** Adds the layers of a site (platformId) or of the system map (null) to a map; resolves to the group added. */
export async function addMapLayers(map: L.Map, platformId: number | null): Promise<L.LayerGroup> {
  const group = L.layerGroup().addTo(map);
  const list = await call(mapsRoutes.layerList, platformId === null ? {} : { platformId }, {
    keepEarlier: true,
    silent: true,
  }).catch(() => []);
  for (const l of list) {
    const one = await call(mapsRoutes.layerGet, { id: l.id }, { keepEarlier: true, silent: true }).catch(() => null);
    if (one) featureLayer(one.data).addTo(group);
  }
  return group;
}

/**
 * A Leaflet map on the configured provider: its CRS, the local coordinate grid under the tiles (with its labels
 * shown once, along the map's edges), the provider's or the server's tiles, and on a KML map the system layers.
 */
export function createMap(el: HTMLElement, config: MapConfig, opts: CreateMapOptions = {}): L.Map {
  const { tileUrl: override, onTilesFailed, noGridLabels, ...mapOpts } = opts;
  const map = L.map(el, {
    crs: crsOf(config.type),
    center: [config.center.lat, config.center.lon],
    zoom: config.zoom,
    worldCopyJump: config.type !== 'baidu',
    ...mapOpts,
  });
  map.attributionControl.setPrefix(false);
  new GraticuleLayer({ zIndex: 0, maxZoom: 19 }).addTo(map);
  if (!noGridLabels) new GraticuleLabels().addTo(map);
  let failures = 0;
  const layers = baseTileLayers(config, override);
  for (const layer of layers) {
    layer.on('tileerror', () => {
      failures += 1;
      if (failures >= 2) onTilesFailed?.(true);
    });
    layer.on('tileload', () => {
      failures = 0;
      onTilesFailed?.(false);
    });
    layer.addTo(map);
  }
  if (!layers.length && config.type !== 'kml') onTilesFailed?.(true);
  if (config.type === 'kml') void addMapLayers(map, null);
  return map;
}
