import L from 'leaflet';
import Supercluster from 'supercluster';

/** A point to cluster: WGS-84 position, a colour (state) and a severity rank (the cluster takes the worst). */
export interface ClusterPoint {
  id: number;
  lat: number;
  lon: number;
  colour: string;
  rank: number;
  label?: string;
}

interface Props {
  id: number;
  colour: string;
  rank: number;
  label?: string | undefined;
}
interface Agg {
  colour: string;
  rank: number;
}

type Feature = ReturnType<Supercluster<Props, Agg>['getClusters']>[number];

/**
 * Many points on one map (issue 21: 20,000 devices stay fluid). The points are indexed once with supercluster; on
 * every move only the clusters and points of the visible box (plus a margin) are drawn, by hand on one canvas (no
 * DOM element and no Leaflet path per point: a redraw is a few hundred arcs and numbers). A cluster shows its count
 * in the colour of its worst member; a click on it zooms in, a click on a point calls onPoint. Redraws are
 * coalesced to one per frame; during a zoom animation the canvas is scaled like Leaflet's own renderers.
 */
export class ClusterLayer extends L.Layer {
  private index: Supercluster<Props, Agg>;
  private canvas: HTMLCanvasElement | null = null;
  private shown: { x: number; y: number; r: number; f: Feature }[] = [];
  private topLeft: L.LatLng | null = null;
  private frame = 0;
  private readonly schedule = (): void => {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  };
  private readonly onZoomAnim = (e: L.ZoomAnimEvent): void => {
    const map = this._map as L.Map & { _latLngToNewLayerPoint(ll: L.LatLng, z: number, c: L.LatLng): L.Point };
    if (!this.canvas || !this.topLeft) return;
    const scale = map.getZoomScale(e.zoom, map.getZoom());
    L.DomUtil.setTransform(this.canvas, map._latLngToNewLayerPoint(this.topLeft, e.zoom, e.center), scale);
  };
  private readonly onClick = (e: L.LeafletMouseEvent): void => {
    const p = e.containerPoint;
    for (const s of this.shown) {
      if ((s.x - p.x) ** 2 + (s.y - p.y) ** 2 > (s.r + 3) ** 2) continue;
      const props = s.f.properties as Partial<Props & { cluster: boolean; cluster_id: number }>;
      if (props.cluster)
        this._map.setView(
          e.latlng,
          Math.min(this.index.getClusterExpansionZoom(props.cluster_id!), this._map.getMaxZoom()),
        );
      else this.onPoint?.(props.id!);
      return;
    }
  };
  onPoint?: (id: number) => void;

  constructor(points: readonly ClusterPoint[] = [], opts: { radius?: number; maxZoom?: number } = {}) {
    super();
    this.index = new Supercluster<Props, Agg>({
      radius: opts.radius ?? 60,
      maxZoom: opts.maxZoom ?? 17,
      map: (p) => ({ colour: p.colour, rank: p.rank }),
      reduce: (acc, p) => {
        if (p.rank > acc.rank) {
          acc.rank = p.rank;
          acc.colour = p.colour;
        }
      },
    });
    this.setPoints(points);
  }

  setPoints(points: readonly ClusterPoint[]): this {
    this.index.load(
      points.map((p) => ({
        type: 'Feature' as const,
        geometry: { type: 'Point' as const, coordinates: [p.lon, p.lat] },
        properties: { id: p.id, colour: p.colour, rank: p.rank, label: p.label },
      })),
    );
    if (this._map) this.schedule();
    return this;
  }

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create('canvas', 'leaflet-zoom-animated gs-cluster-canvas', map.getPanes().overlayPane);
    this.canvas.style.pointerEvents = 'none';
    map.on('moveend zoomend resize viewreset', this.schedule);
    map.on('zoomanim', this.onZoomAnim);
    map.on('click', this.onClick);
    this.draw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize viewreset', this.schedule);
    map.off('zoomanim', this.onZoomAnim);
    map.off('click', this.onClick);
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.canvas?.remove();
    this.canvas = null;
    return this;
  }

  /** The number of clusters and points drawn now, and the time all draws took so far (tests, bench). */
  drawn = 0;
  drawMs = 0;

  private draw(): void {
    const map = this._map;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const t0 = performance.now();
    const size = map.getSize();
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== size.x * dpr || canvas.height !== size.y * dpr) {
      canvas.width = size.x * dpr;
      canvas.height = size.y * dpr;
      canvas.style.width = `${size.x}px`;
      canvas.style.height = `${size.y}px`;
    }
    this.topLeft = map.containerPointToLatLng([0, 0]);
    L.DomUtil.setTransform(canvas, map.containerPointToLayerPoint([0, 0]), 1);
    const ctx = canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size.x, size.y);
    const b = map.getBounds().pad(0.1);
    const features = this.index.getClusters(
      [
        Math.max(-180, b.getWest()),
        Math.max(-85, b.getSouth()),
        Math.min(180, b.getEast()),
        Math.min(85, b.getNorth()),
      ],
      Math.round(map.getZoom()),
    );
    this.shown = [];
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = '600 11px sans-serif';
    for (const f of features) {
      const [lon, lat] = f.geometry.coordinates as [number, number];
      const pt = map.latLngToContainerPoint([lat, lon]);
      const p = f.properties as Partial<Props & Agg & { cluster: boolean; point_count: number }>;
      const n = p.cluster ? (p.point_count ?? 0) : 1;
      const r = p.cluster ? Math.min(26, 10 + Math.log2(n) * 2.2) : 6;
      ctx.beginPath();
      ctx.arc(pt.x, pt.y, r, 0, Math.PI * 2);
      ctx.fillStyle = p.colour ?? '#1677ff';
      ctx.globalAlpha = p.cluster ? 0.85 : 1;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = p.cluster ? 2 : 1.5;
      ctx.strokeStyle = '#fff';
      ctx.stroke();
      if (p.cluster) {
        ctx.fillStyle = '#fff';
        ctx.fillText(String(n), pt.x, pt.y);
      }
      this.shown.push({ x: pt.x, y: pt.y, r, f });
    }
    this.drawn = features.length;
    this.drawMs += performance.now() - t0;
  }
}
