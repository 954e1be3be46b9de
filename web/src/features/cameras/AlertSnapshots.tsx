import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Empty, Flex, Image, Typography } from 'antd';
import { CameraOutlined } from '@ant-design/icons';
import { mayUse, readCurrentUser } from '../../shared/currentUser.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime } from '../../shared/time.ts';
import { cameraKeys, fetchSnapshots } from './camerasApi.ts';
import { SnapshotMedia } from './SnapshotMedia.tsx';
import './cameras.css';

/**
 * Pictures of an alert are taken as it fires and take a few seconds, its clips (CAMERA_ALERT_CLIP_SECONDS) a few
 * more: a young alert without a clip yet asks again.
 */
const YOUNG_MS = 2 * 60_000;

/**
 * The pictures and clips the site's cameras took when an alert fired (its evidence), with a link to the live view. The server
 * answers only the pictures of cameras the caller sees (data scope and role camera configuration).
 *
 * `inCard` (the alert's drawer in the alerts screen): a card of its own, shown only when there are pictures, so that
 * alerts of sites without cameras carry no empty block; `firedAt` lets a young alert wait for its pictures.
 */
export function AlertSnapshots({
  alertId,
  platformId,
  inCard = false,
  firedAt,
}: {
  alertId: number;
  platformId?: number;
  inCard?: boolean;
  firedAt?: string;
}) {
  const { t } = useTranslation('cameras');
  const user = readCurrentUser();
  const canSee = ['camera:real-time', 'camera:cameraTask', 'alert-predict:alert'].some((c) => mayUse(user, c));
  const young = firedAt !== undefined && Date.now() - new Date(firedAt).getTime() < YOUNG_MS;
  const q = useQuery({
    queryKey: cameraKeys.snapshots({ alertId }),
    queryFn: () => fetchSnapshots({ alertId, pageNum: 1, pageSize: 16 }),
    enabled: canSee && alertId > 0,
    retry: retryUnlessCancelled,
    refetchInterval: (query) =>
      young && !(query.state.data?.list ?? []).some((s) => s.media === 'mp4') ? 5000 : false,
  });
  const list = q.data?.list ?? [];
  const live =
    platformId && mayUse(user, 'camera:real-time') ? (
      <Typography.Link href={`#/camera/realtimecamera?platformId=${platformId}`} data-testid="alert-snapshots-live">
        {t('alert.live')}
      </Typography.Link>
    ) : null;
  const gallery = (
    <Image.PreviewGroup>
      <div className="camera-gallery">
        {list.map((s) => (
          <Flex key={s.id} vertical gap={4} data-testid="alert-snapshot">
            <SnapshotMedia snapshot={s} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {s.cameraName} · {formatTime(s.takenAt)}
            </Typography.Text>
          </Flex>
        ))}
      </div>
    </Image.PreviewGroup>
  );
  if (inCard) {
    if (list.length === 0) return null;
    return (
      <Card
        size="small"
        title={
          <Flex gap={8} align="center">
            <CameraOutlined />
            {t('alert.title')}
          </Flex>
        }
        extra={live}
        data-testid="alert-snapshots"
      >
        {gallery}
      </Card>
    );
  }
  return (
    <Flex vertical gap={8} data-testid="alert-snapshots">
      <Flex justify="space-between">
        <Typography.Text strong>{t('alert.title')}</Typography.Text>
        {live}
      </Flex>
      {list.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alert.none')} /> : gallery}
    </Flex>
  );
}
