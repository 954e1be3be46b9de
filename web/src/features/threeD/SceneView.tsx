import { useEffect, useRef, useState, type DragEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Spin } from 'antd';
import { SiteScene, type Marker } from './siteScene.ts';
import { withToken } from './threeDApi.ts';
import { getToken } from '../../shared/storage.ts';

export interface SceneViewProps {
  modelUrl: string | null;
  /** The model's lighter level of detail: drawn first, then the full model over it. */
  previewUrl?: string | null;
  /** The site's 3D Tiles tileset.json (with or without a model). */
  tilesetUrl?: string | null;
  markers: Marker[];
  selected: number | null;
  /** The label over the selected marker. */
  selectedLabel?: string | undefined;
  onPick?: (deviceId: number | null) => void;
  /** Manage mode: a marker dragged over the model, or a device dropped from the list. */
  onMove?: (deviceId: number, position: { x: number; y: number; z: number }) => void;
  height?: number | string;
}

/** The three.js scene of a site in a React box: loads the model, draws the markers, labels the picked one. */
export function SceneView({
  modelUrl,
  previewUrl = null,
  tilesetUrl = null,
  markers,
  selected,
  selectedLabel,
  onPick,
  onMove,
  height = 'calc(100vh - 300px)',
}: SceneViewProps): ReactElement {
  const { t } = useTranslation('threeD');
  const host = useRef<HTMLDivElement>(null);
  const label = useRef<HTMLDivElement>(null);
  const scene = useRef<SiteScene | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const handlers = useRef({ onPick, onMove });
  handlers.current = { onPick, onMove };
  const editable = onMove !== undefined;

  useEffect(() => {
    const s = new SiteScene(host.current!, {
      onPick: (id) => handlers.current.onPick?.(id),
      ...(editable ? { onMove: (id, p) => handlers.current.onMove?.(id, p) } : {}),
    });
    scene.current = s;
    (window as unknown as { __gsThreeD?: SiteScene }).__gsThreeD = s;
    return () => {
      s.dispose();
      scene.current = null;
    };
  }, [editable]);

  useEffect(() => {
    const s = scene.current;
    if (!s) return;
    setError(null);
    if (!modelUrl) {
      s.clearModel();
      return;
    }
    let live = true;
    setLoading(true);
    const started = performance.now();
    const el = host.current;
    const mark = (name: string, value: number): void => el?.setAttribute(name, String(Math.round(value)));
    // A large model comes in two steps: its preview (a few hundred kB) is on screen at once, the full model follows.
    const load = async (): Promise<void> => {
      await s.loadModel(withToken(previewUrl ?? modelUrl));
      if (!live) return;
      mark('data-first-ms', performance.now() - started);
      setLoading(false);
      if (previewUrl) {
        await s.loadDetail(withToken(modelUrl));
        if (!live) return;
      }
      mark('data-load-ms', performance.now() - started);
      mark('data-triangles', s.triangles());
    };
    load()
      .catch(() => live && setError(t('errors.modelLoad')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [modelUrl, previewUrl, t]);

  useEffect(() => {
    const s = scene.current;
    if (!s) return;
    if (!tilesetUrl) {
      s.clearTileset();
      return;
    }
    let live = true;
    const el = host.current;
    const token = getToken();
    s.loadTileset(tilesetUrl, token ? { token } : {})
      .then((ms) => live && el?.setAttribute('data-tileset-ms', String(Math.round(ms))))
      .catch(() => live && setError(t('errors.tilesetLoad')));
    return () => {
      live = false;
    };
  }, [tilesetUrl, t]);

  useEffect(() => {
    scene.current?.setMarkers(markers.map((m) => ({ ...m, position: m.position ? { ...m.position } : null })));
  }, [markers]);

  // The label follows its marker after every frame.
  useEffect(() => {
    const s = scene.current;
    if (!s) return;
    const place = (): void => {
      const el = label.current;
      if (!el) return;
      const at = selected !== null ? s.screenOf(selected) : null;
      el.style.display = at ? 'block' : 'none';
      if (at) el.style.transform = `translate(${at.x}px, ${at.y}px) translate(-50%, -100%)`;
    };
    s.afterRender.add(place);
    place();
    s.invalidate();
    return () => {
      s.afterRender.delete(place);
    };
  }, [selected, markers]);

  const onDrop = (e: DragEvent<HTMLDivElement>): void => {
    const id = Number(e.dataTransfer.getData('application/x-device-id'));
    if (!onMove || !Number.isInteger(id) || id <= 0) return;
    e.preventDefault();
    const p = scene.current?.surfaceAt(e.clientX, e.clientY);
    if (p) onMove(id, p);
  };

  return (
    <div
      ref={host}
      className="gs-three-d-host"
      data-testid="three-d-scene"
      data-loading={loading ? 'true' : 'false'}
      style={{ position: 'relative', height, minHeight: 360, width: '100%', overflow: 'hidden', borderRadius: 6 }}
      onDragOver={editable ? (e) => e.preventDefault() : undefined}
      onDrop={editable ? onDrop : undefined}
    >
      <div
        ref={label}
        data-testid="three-d-label"
        style={{
          position: 'absolute',
          left: 0,
          top: 0,
          display: 'none',
          pointerEvents: 'none',
          background: 'rgba(0,0,0,0.75)',
          color: '#fff',
          padding: '2px 8px',
          borderRadius: 4,
          fontSize: 12,
          whiteSpace: 'nowrap',
          zIndex: 2,
        }}
      >
        {selectedLabel}
      </div>
      {loading ? (
        <Spin style={{ position: 'absolute', left: '50%', top: '50%', zIndex: 3 }} data-testid="three-d-loading" />
      ) : null}
      {error ? (
        <Alert type="error" showIcon title={error} style={{ position: 'absolute', left: 12, top: 12, zIndex: 3 }} />
      ) : null}
    </div>
  );
}
