import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Spin, Typography } from 'antd';
import { CloseOutlined, DisconnectOutlined, ReloadOutlined } from '@ant-design/icons';
import type Hls from 'hls.js';
import type { LiveQuality } from '@geosentry/contract';
import { ApiError } from '../../shared/api.ts';
import { closeLive, liveStatus, openLive } from './camerasApi.ts';

type TileState = 'opening' | 'starting' | 'playing' | 'lost' | 'error';

/**
 * One tile of the live grid: opens the camera's stream (a signed HLS address that expires), plays it with hls.js
 * (loaded with the first tile), asks the server for the stream's state every two seconds: a camera that went away
 * says so and the tile reconnects when it comes back. Closing the tile (or leaving the screen) closes the stream.
 */
export function LiveTile({
  cameraId,
  quality,
  name,
  selected,
  onSelect,
  onClose,
}: {
  cameraId: number;
  /** sub: the camera's sub stream where it gives one (the 9 and 16 tile grids). */
  quality: LiveQuality;
  name: string;
  selected: boolean;
  onSelect: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('cameras');
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<TileState>('opening');
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  /** The stream the server serves (sub only where the camera gives one). */
  const [served, setServed] = useState<LiveQuality | null>(null);

  useEffect(() => {
    let cancelled = false;
    let hls: Hls | null = null;
    let streamId: string | null = null;
    let url = '';
    let expiresAt = 0;
    let timer: ReturnType<typeof setInterval> | null = null;
    let playing = false;

    const attach = async () => {
      const { default: HlsClass } = await import('hls.js');
      if (cancelled || !video.current) return;
      hls?.destroy();
      if (HlsClass.isSupported()) {
        const h = new HlsClass({
          lowLatencyMode: true,
          // Close to the live edge (0.5 s segments, cut at the camera's key frames): one second behind, caught up
          // by playing faster when more than three behind.
          liveSyncDuration: 1,
          liveMaxLatencyDuration: 3,
          maxLiveSyncPlaybackRate: 1.5,
          backBufferLength: 4,
          manifestLoadingMaxRetry: 20,
          manifestLoadingRetryDelay: 500,
        });
        hls = h;
        h.on(HlsClass.Events.ERROR, (_e, data) => {
          if (data.fatal) {
            h.destroy();
            if (hls === h) hls = null;
            playing = false;
          }
        });
        h.loadSource(url);
        h.attachMedia(video.current);
      } else video.current.src = url; // Safari plays HLS itself
      void video.current.play().catch(() => undefined);
      playing = true;
    };

    const poll = async () => {
      if (!streamId || cancelled) return;
      try {
        // The address expires: a new one (same stream) a minute before, and the player moves to it.
        if (Date.now() > expiresAt - 60_000) {
          const fresh = await openLive(cameraId, quality);
          if (cancelled) return;
          streamId = fresh.streamId;
          url = fresh.url;
          expiresAt = Date.parse(fresh.expiresAt);
          hls?.destroy();
          hls = null;
          playing = false;
        }
        const s = await liveStatus(streamId);
        if (cancelled) return;
        setState(s.state);
        if (s.state === 'lost') {
          hls?.destroy();
          hls = null;
          playing = false;
        } else if (s.state === 'playing' && !playing) await attach();
      } catch (e) {
        // The stream ended on the server (idle, or the camera was edited): open it again.
        if (!cancelled && e instanceof ApiError) {
          streamId = null;
          void open();
        }
      }
    };

    const open = async () => {
      setState('opening');
      try {
        const s = await openLive(cameraId, quality);
        if (cancelled) {
          void closeLive(s.streamId).catch(() => undefined);
          return;
        }
        streamId = s.streamId;
        url = s.url;
        expiresAt = Date.parse(s.expiresAt);
        setServed(s.quality);
        setState('starting');
        timer ??= setInterval(() => void poll(), 2000);
        void poll();
      } catch (e) {
        if (cancelled) return;
        setState('error');
        setError(e instanceof ApiError ? e.message : String(e));
      }
    };
    void open();
    return () => {
      cancelled = true;
      if (timer) clearInterval(timer);
      hls?.destroy();
      if (streamId) void closeLive(streamId).catch(() => undefined);
    };
  }, [cameraId, quality, attempt]);

  return (
    <div
      className={`camera-tile${selected ? ' camera-tile-selected' : ''}`}
      data-testid={`live-tile-${cameraId}`}
      data-state={state}
      data-quality={served ?? undefined}
      onClick={onSelect}
    >
      <video ref={video} muted playsInline autoPlay data-testid="live-video" />
      <Flex className="camera-tile-bar" justify="space-between" align="center">
        <Typography.Text ellipsis style={{ color: '#fff', maxWidth: '80%' }}>
          {name}
        </Typography.Text>
        <Button
          size="small"
          type="text"
          aria-label={t('live.closeTile')}
          icon={<CloseOutlined style={{ color: '#fff' }} />}
          onClick={(e) => {
            e.stopPropagation();
            onClose();
          }}
        />
      </Flex>
      {state === 'opening' || state === 'starting' ? (
        <Flex className="camera-tile-overlay" vertical align="center" justify="center" gap={8}>
          <Spin />
          <Typography.Text style={{ color: '#ddd' }}>{t('live.connecting')}</Typography.Text>
        </Flex>
      ) : null}
      {state === 'lost' ? (
        <Flex className="camera-tile-overlay" vertical align="center" justify="center" gap={8} data-testid="tile-lost">
          <DisconnectOutlined style={{ fontSize: 28, color: '#faad14' }} />
          <Typography.Text style={{ color: '#faad14' }}>{t('live.lost')}</Typography.Text>
        </Flex>
      ) : null}
      {state === 'error' ? (
        <Flex className="camera-tile-overlay" vertical align="center" justify="center" gap={8} data-testid="tile-error">
          <Typography.Text style={{ color: '#ff7875', textAlign: 'center', padding: '0 12px' }}>
            {error}
          </Typography.Text>
          <Button size="small" icon={<ReloadOutlined />} onClick={() => setAttempt((a) => a + 1)}>
            {t('live.retry')}
          </Button>
        </Flex>
      ) : null}
    </div>
  );
}
