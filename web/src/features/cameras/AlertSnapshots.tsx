import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Empty, Flex, Image, Typography } from 'antd';
import { getToken } from '../../shared/storage.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime } from '../../shared/time.ts';
import { cameraKeys, fetchSnapshots, snapshotHref } from './camerasApi.ts';
import './cameras.css';

/** The pictures the site's cameras took when an alert fired (its evidence), with a link to the live view. */
export function AlertSnapshots({ alertId, platformId }: { alertId: number; platformId?: number }) {
  const { t } = useTranslation('cameras');
  const q = useQuery({
    queryKey: cameraKeys.snapshots({ alertId }),
    queryFn: () => fetchSnapshots({ alertId, pageNum: 1, pageSize: 16 }),
    retry: retryUnlessCancelled,
  });
  const list = q.data?.list ?? [];
  return (
    <Flex vertical gap={8} data-testid="alert-snapshots">
      <Flex justify="space-between">
        <Typography.Text strong>{t('alert.title')}</Typography.Text>
        {platformId ? (
          <Typography.Link href={`#/camera/realtimecamera?platformId=${platformId}`}>{t('alert.live')}</Typography.Link>
        ) : null}
      </Flex>
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alert.none')} />
      ) : (
        <Image.PreviewGroup>
          <div className="camera-gallery">
            {list.map((s) => (
              <Flex key={s.id} vertical gap={4}>
                <Image src={snapshotHref(s.id, getToken())} alt={s.cameraName} width="100%" />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {s.cameraName} · {formatTime(s.takenAt)}
                </Typography.Text>
              </Flex>
            ))}
          </div>
        </Image.PreviewGroup>
      )}
    </Flex>
  );
}
