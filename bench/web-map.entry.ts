// Bundled by web-map.bench.ts for the browser: the console's own map code (Leaflet, the coordinate grid, the
// cluster layer) without the rest of the console.
import L from 'leaflet';
import { ClusterLayer } from '../web/src/shared/map/cluster.ts';
import { GraticuleLayer } from '../web/src/shared/map/graticule.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
async function run(mode: 'cluster' | 'plain', n: number) {
  const gsBench = { L, ClusterLayer, GraticuleLayer };
  void gsBench;

  // Devices: a seeded spread over south-west China, denser around the sites.
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const colours = ['#52c41a', '#0099ff', '#ffcc33', '#ff6600', '#cc0033'];
  const pts = Array.from({ length: n }, (_, i) => {
    const hub = i % 40;
    const lat = 26 + (hub % 8) * 1.2 + (rnd() - 0.5) * 1.5;
    const lon = 100 + Math.floor(hub / 8) * 1.6 + (rnd() - 0.5) * 2;
    const rank = rnd() < 0.9 ? 0 : 1 + Math.floor(rnd() * 4);
    return { id: i, lat, lon, colour: colours[rank] ?? '#888888', rank };
  });
  const t0 = performance.now();
  const map = L.map('map', { center: [29.5, 103], zoom: 7, preferCanvas: true });
  new GraticuleLayer({ zIndex: 0, maxZoom: 19 }).addTo(map);
  let layer: any;
  if (mode === 'cluster') layer = new ClusterLayer(pts).addTo(map);
  else {
    layer = L.layerGroup();
    for (const p of pts)
      L.circleMarker([p.lat, p.lon], {
        radius: 6,
        color: '#fff',
        weight: 1.5,
        fillColor: p.colour,
        fillOpacity: 1,
      }).addTo(layer);
    layer.addTo(map);
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const setupMs = performance.now() - t0;
  // Each frame: its interval (frame time) and the main-thread work done for it (the move, the redraws it caused).
  const drawMs = () => (mode === 'cluster' ? (layer.drawMs as number) : 0);
  const frames = async (work: (i: number) => void, count: number): Promise<{ t: number[]; w: number[] }> => {
    const t: number[] = [];
    const w: number[] = [];
    let last = performance.now();
    let drawn = drawMs();
    for (let i = 0; i < count; i++) {
      await new Promise<void>((r) =>
        requestAnimationFrame((ts) => {
          t.push(ts - last);
          last = ts;
          const a = performance.now();
          work(i);
          const d = drawMs();
          w.push(performance.now() - a + (d - drawn));
          drawn = d;
          r();
        }),
      );
    }
    return { t: t.slice(2), w: w.slice(2) };
  };
  // Pan: 8 px right and 5 px down every frame, then back, each step a full redraw.
  const pan = await frames((i) => map.panBy(i < 90 ? [8, 5] : [-8, -5], { animate: false }), 180);
  // Zoom: animated steps in to 12 and out to 6, one every 20 frames.
  const zooms = [8, 9, 10, 11, 12, 11, 10, 9, 8, 7, 6];
  const zoom = await frames(
    (i) => {
      const z = i % 20 === 0 ? zooms[i / 20] : undefined;
      if (z !== undefined) map.setZoom(z, { animate: true });
    },
    zooms.length * 20 + 10,
  );
  return {
    pan: pan.t,
    panWork: pan.w,
    zoom: zoom.t,
    zoomWork: zoom.w,
    setupMs,
    drawn: mode === 'cluster' ? layer.drawn : n,
  };
}

(window as unknown as { gsBench: unknown }).gsBench = { run };
