import { useTranslation } from 'react-i18next';
import { Image, Tag } from 'antd';
import { VideoCameraOutlined } from '@ant-design/icons';
import type { CameraSnapshot } from '@geosentry/contract';
import { getToken } from '../../shared/storage.ts';
import { snapshotHref } from './camerasApi.ts';

/**
 * A snapshot in a gallery: a picture (opens in the preview group) or a clip, played in place with the browser's
 * controls and its length on a badge. The clip's address carries the token, as the picture's does; the server
 * answers Range requests, so the player seeks.
 */
export function SnapshotMedia({ snapshot: s }: { snapshot: CameraSnapshot }) {
  const { t } = useTranslation('cameras');
  if (s.media !== 'mp4') return <Image src={snapshotHref(s.id, getToken())} alt={s.cameraName} width="100%" />;
  const seconds = Math.round((s.durationMs ?? 0) / 1000);
  return (
    <div className="camera-clip">
      <video
        src={snapshotHref(s.id, getToken())}
        controls
        muted
        playsInline
        preload="metadata"
        aria-label={t('gallery.clip', { camera: s.cameraName, seconds })}
        data-testid="snapshot-clip"
      />
      <Tag className="camera-clip-duration" icon={<VideoCameraOutlined />} data-testid="snapshot-clip-duration">
        {t('tasks.seconds', { count: seconds })}
      </Tag>
    </div>
  );
}
