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
 * can be reached (offline consoles, tests). Lines every `graticuleStep(zoom)` degrees. The tiles carry no labels
 * (each tile labelling its own lines repeated every label down and across the map): GraticuleLabels labels each
 * line once, along the map's top and right edges.
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
    const toPx = (ll: L.LatLng) => map.project(ll, zoom).subtract(nwPoint);
    // Meridians.
    for (let i = Math.ceil(nw.lng / step); i * step <= se.lng; i++) {
      const lon = i * step;
      const x = Math.round(toPx(L.latLng(nw.lat, lon)).x) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, size.y);
      ctx.stroke();
    }
    // Parallels.
    for (let i = Math.ceil(se.lat / step); i * step <= nw.lat; i++) {
      const lat = i * step;
      const y = Math.round(toPx(L.latLng(lat, nw.lng)).y) + 0.5;
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(size.x, y);
      ctx.stroke();
    }
    return canvas;
  },
}) as unknown as new (options?: L.GridLayerOptions) => L.GridLayer;

/** Labels of the grid's lines, once each: longitudes along the top edge, latitudes along the right edge. */
export class GraticuleLabels extends L.Layer {
  private box: HTMLDivElement | null = null;
  private readonly redraw = (): void => this.draw();

  override onAdd(map: L.Map): this {
    this.box = L.DomUtil.create('div', 'gs-graticule-labels', map.getContainer());
    Object.assign(this.box.style, {
      position: 'absolute',
      inset: '0',
      pointerEvents: 'none',
      zIndex: '450',
      overflow: 'hidden',
      font: '11px sans-serif',
      color: '#5b6b80',
    });
    map.on('move zoom viewreset resize', this.redraw);
    this.draw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('move zoom viewreset resize', this.redraw);
    this.box?.remove();
    this.box = null;
    return this;
  }

  private draw(): void {
    const map = this._map;
    const box = this.box;
    if (!map || !box) return;
    const size = map.getSize();
    const b = map.getBounds();
    const step = graticuleStep(map.getZoom());
    const mid = b.getCenter();
    const parts: string[] = [];
    const tag = (x: number, y: number, text: string, align: 'top' | 'right') =>
      parts.push(
        `<span style="position:absolute;${align === 'top' ? `left:${Math.round(x)}px;top:2px;transform:translateX(-50%)` : `right:3px;top:${Math.round(y)}px;transform:translateY(-50%)`};background:rgba(255,255,255,.75);padding:0 3px;border-radius:2px;white-space:nowrap">${text}</span>`,
      );
    let lastX = -Infinity;
    const west = Math.max(-180, b.getWest());
    const east = Math.min(180, b.getEast());
    for (let i = Math.ceil(west / step); i * step <= east && parts.length < 60; i++) {
      const lon = i * step;
      const x = map.latLngToContainerPoint([mid.lat, lon]).x;
      // Clear of the zoom buttons; never closer than a label's width to the previous one.
      if (x < 60 || x > size.x - 50 || x - lastX < 64) continue;
      lastX = x;
      tag(x, 0, `${fmt(lon, step)}°`, 'top');
    }
    let lastY = -Infinity;
    const south = Math.max(-85, b.getSouth());
    const north = Math.min(85, b.getNorth());
    for (let i = Math.floor(north / step); i * step >= south && parts.length < 120; i--) {
      const lat = i * step;
      const y = map.latLngToContainerPoint([lat, mid.lng]).y;
      if (y < 24 || y > size.y - 30 || y - lastY < 18) continue;
      lastY = y;
      tag(0, y, `${fmt(lat, step)}°`, 'right');
    }
    box.innerHTML = parts.join('');
  }
}
