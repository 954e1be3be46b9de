import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Descriptions, Flex, Tag } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { alertsRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { picker, retryUnlessCancelled } from '../../shared/query.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { formatTime } from '../../shared/time.ts';
import { AlertSnapshots } from './AlertSnapshots.tsx';

const LEVEL_COLOURS = ['', 'blue', 'gold', 'orange', 'red'];

/**
 * An alert with the pictures its site's cameras took when it fired (?alertId=): the alert's device, level, value
 * and time, its snapshots, and the link to the site's live view.
 */
export default function AlertPage() {
  const { t } = useTranslation('cameras');
  const alertId = Number(new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('alertId') ?? 0);
  const alert = useQuery({
    queryKey: ['cameras', 'alert', alertId],
    queryFn: () => call(alertsRoutes.detail, { id: alertId }, picker),
    enabled: alertId > 0,
    retry: retryUnlessCancelled,
  });
  const a = alert.data;
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<AlertOutlined />} title={t('alert.page')} description={t('alert.description')} />
      {a ? (
        <Card size="small" data-testid="alert-card">
          <Descriptions
            size="small"
            column={3}
            items={[
              { key: 'site', label: t('fields.site'), children: a.platformName },
              { key: 'device', label: t('alert.device'), children: `${a.deviceName} (${a.showName})` },
              {
                key: 'level',
                label: t('alert.level'),
                children: <Tag color={LEVEL_COLOURS[a.level]}>{t('alert.levelN', { level: a.level })}</Tag>,
              },
              {
                key: 'value',
                label: t('alert.value'),
                children: `${a.triggerValue ?? a.lastValue ?? '-'} / ${a.threshold ?? '-'}`,
              },
              { key: 'at', label: t('alert.at'), children: formatTime(a.firstAt) },
            ]}
          />
        </Card>
      ) : null}
      <Card size="small">
        <AlertSnapshots alertId={alertId} {...(a ? { platformId: a.platformId } : {})} />
      </Card>
    </Flex>
  );
}
