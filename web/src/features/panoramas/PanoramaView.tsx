import { useEffect, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Spin } from 'antd';
import { ArrowUpOutlined } from '@ant-design/icons';
import type { Hotspot } from '@geosentry/contract';
import { deviceColour, mainValueText } from '../threeD/index.ts';
import { PanoViewer } from './panoViewer.ts';

export interface PanoramaViewProps {
  imageUrl: string;
  spots: Hotspot[];
  /** A link hotspot clicked. */
  onLink?: (targetId: number) => void;
  /** A device hotspot clicked. */
  onDevice?: (deviceId: number) => void;
  /** Editing: a click on the image (not on a hotspot) at a direction. */
  onPlace?: (yaw: number, pitch: number) => void;
  /** Editing: the hotspot drawn highlighted (index in spots). */
  highlight?: number | null;
  height?: number | string;
}

/** A panorama with its hotspots over it: devices with their live value in their state's colour, links. */
export function PanoramaView({
  imageUrl,
  spots,
  onLink,
  onDevice,
  onPlace,
  highlight = null,
  height = 'calc(100vh - 300px)',
}: PanoramaViewProps): ReactElement {
  const { t } = useTranslation('panoramas');
  const host = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const viewer = useRef<PanoViewer | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(false);
  const place = useRef(onPlace);
  place.current = onPlace;

  useEffect(() => {
    const v = new PanoViewer(host.current!, (yaw, pitch) => place.current?.(yaw, pitch));
    viewer.current = v;
    return () => {
      v.dispose();
      viewer.current = null;
    };
  }, []);

  useEffect(() => {
    const v = viewer.current;
    if (!v) return;
    let live = true;
    setLoading(true);
    setError(false);
    v.load(imageUrl)
      .then(() => live && v.lookAt(0, 0))
      .catch(() => live && setError(true))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [imageUrl]);

  // Hotspots follow the view after every frame.
  useEffect(() => {
    const v = viewer.current;
    if (!v) return;
    const follow = (): void => {
      const items = layer.current?.children;
      if (!items) return;
      spots.forEach((s, i) => {
        const el = items[i] as HTMLElement | undefined;
        if (!el) return;
        const at = v.project(s.yaw, s.pitch);
        el.style.display = at ? 'flex' : 'none';
        if (at) el.style.transform = `translate(${at.x}px, ${at.y}px) translate(-50%, -50%)`;
      });
    };
    v.afterRender.add(follow);
    v.invalidate();
    return () => {
      v.afterRender.delete(follow);
    };
  }, [spots]);

  return (
    <div
      ref={host}
      data-testid="pano-view"
      data-loading={loading ? 'true' : 'false'}
      style={{
        position: 'relative',
        height,
        minHeight: 360,
        width: '100%',
        overflow: 'hidden',
        borderRadius: 6,
        background: '#1f2a33',
      }}
    >
      <div ref={layer} style={{ position: 'absolute', inset: 0, pointerEvents: 'none', zIndex: 2 }}>
        {spots.map((s, i) => {
          const ring = highlight === i ? '0 0 0 3px #1677ff' : '0 1px 4px rgba(0,0,0,0.45)';
          if (s.kind === 'link' && s.target) {
            const target = s.target;
            return (
              <button
                key={`l${s.id}-${i}`}
                type="button"
                data-testid="pano-link"
                data-target-id={target.id}
                onClick={() => onLink?.(target.id)}
                style={{
                  position: 'absolute',
                  left: 0,
                  top: 0,
                  display: 'none',
                  alignItems: 'center',
                  gap: 6,
                  pointerEvents: 'auto',
                  cursor: 'pointer',
                  border: 'none',
                  borderRadius: 16,
                  padding: '4px 10px',
                  background: 'rgba(255,255,255,0.9)',
                  boxShadow: ring,
                  fontSize: 12,
                }}
              >
                <ArrowUpOutlined />
                {s.label || target.name}
              </button>
            );
          }
          const d = s.device;
          if (!d) return <span key={`x${i}`} style={{ display: 'none' }} />;
          const colour = deviceColour(d.state, d.alertLevel);
          return (
            <button
              key={`d${s.id}-${i}`}
              type="button"
              data-testid="pano-device"
              data-device-id={d.deviceId}
              data-state={d.state}
              data-colour={colour}
              onClick={() => onDevice?.(d.deviceId)}
              style={{
                position: 'absolute',
                left: 0,
                top: 0,
                display: 'none',
                alignItems: 'center',
                gap: 6,
                pointerEvents: 'auto',
                cursor: 'pointer',
                border: `2px solid ${colour}`,
                borderRadius: 6,
                padding: '3px 8px',
                background: 'rgba(0,0,0,0.72)',
                color: '#fff',
                boxShadow: ring,
                fontSize: 12,
                whiteSpace: 'nowrap',
              }}
            >
              <span style={{ width: 10, height: 10, borderRadius: 5, background: colour, flex: 'none' }} />
              <span>{s.label || d.deviceName}</span>
              <strong data-testid="pano-device-value">{mainValueText(d.moduleId, d.values)}</strong>
            </button>
          );
        })}
      </div>
      {loading ? <Spin style={{ position: 'absolute', left: '50%', top: '50%', zIndex: 3 }} /> : null}
      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('errors.image')}
          style={{ position: 'absolute', left: 12, top: 12, zIndex: 3 }}
        />
      ) : null}
    </div>
  );
}
