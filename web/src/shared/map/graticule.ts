import L from 'leaflet';

/** Grid spacing in degrees for a zoom level: about four lines across a 256 px tile. */
export function graticuleStep(zoom: number): number {
  const steps = [30, 20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001];
  const degPerTile = 360 / 2 ** zoom;
  return steps.find((s) => s <= degPerTile / 3) ?? steps[steps.length - 1]!;
}

const fmt = (v: number, step: number): string => {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step)));
  return v.toFixed(decimals);
};

/**
 * A coordinate grid (graticule) drawn locally on canvas tiles: the map stays usable when no tile server
 * can be reached (offline consoles, tests). Lines every `graticuleStep(zoom)` degrees, labelled in degrees.
 */
export const GraticuleLayer = L.GridLayer.extend({
  createTile(this: L.GridLayer, coords: L.Coords): HTMLCanvasElement {
    const size = this.getTileSize();
    const canvas = document.createElement('canvas');
    canvas.width = size.x;
    canvas.height = size.y;
    const ctx = canvas.getContext('2d');
    if (!ctx) return canvas;
    const map = (this as unknown as { _map: L.Map })._map;
    const zoom = coords.z;
    const nwPoint = coords.scaleBy(size);
    const nw = map.unproject(nwPoint, zoom);
    const se = map.unproject(nwPoint.add(size), zoom);
    ctx.fillStyle = '#eef3f8';
    ctx.fillRect(0, 0, size.x, size.y);
    const step = graticuleStep(zoom);
    ctx.strokeStyle = '#c3d0de';
    ctx.lineWidth = 1;
    ctx.fillStyle = '#7a8aa0';
    ctx.font = '10px sans-serif';
    const toPx = (ll: L.LatLng) => map.project(ll, zoom).subtract(nwPoint);
    // Meridians.
    for (let i = Math.ceil(nw.lng / step); i * step <= se.lng; i++) {
      const lon = i * step;
      const x = Math.round(toPx(L.latLng(nw.lat, lon)).x) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, size.y);
      ctx.stroke();
      const label = `${fmt(lon, step)}°`;
      // Labels that would run off the tile are left out (the next tile labels its own lines).
      if (x + 3 + ctx.measureText(label).width < size.x) ctx.fillText(label, x + 3, size.y - 4);
    }
    // Parallels.
    for (let i = Math.ceil(se.lat / step); i * step <= nw.lat; i++) {
      const lat = i * step;
      const y = Math.round(toPx(L.latLng(lat, nw.lng)).y) + 0.5;
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(size.x, y);
      ctx.stroke();
      if (y - 12 > 0) ctx.fillText(`${fmt(lat, step)}°`, 3, y - 3);
    }
    return canvas;
  },
}) as unknown as new (options?: L.GridLayerOptions) => L.GridLayer;
