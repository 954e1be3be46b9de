import { useTranslation } from 'react-i18next';
import { Alert, Badge } from 'antd';

/** Whether live data flows; browsers without WebSocket get the spec's warning (§5) instead. */
export function LiveBadge({ connected, supported }: { connected: boolean; supported: boolean }) {
  const { t } = useTranslation('monitor');
  if (!supported)
    return (
      <Alert type="warning" showIcon title={t('common:socket.unsupported')} data-testid="monitor-socket-warning" />
    );
  return (
    <Badge
      status={connected ? 'processing' : 'default'}
      text={connected ? t('live.on') : t('live.off')}
      data-testid="monitor-live"
      data-connected={connected ? '1' : '0'}
    />
  );
}
