import { useMemo, type ReactElement } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Descriptions, Empty, Tag, Typography } from 'antd';
import { monitorTypeLabel, type ThreeDDevice } from '@geosentry/contract';
import { EChart, type EChartOption } from '../../shared/charts/EChart.tsx';
import { formatTime } from '../../shared/time.ts';
import { formatValue } from '../../shared/format.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchRecent, threeDKeys } from './threeDApi.ts';
import { deviceColour, mainQuantity, quantityLabel } from './deviceLook.ts';
import type { LivePoint } from './useLiveScene.ts';

/** The picked device: its state, live values and the recent chart of its main quantity (history + live points). */
export function DevicePanel({ device, live }: { device: ThreeDDevice; live: LivePoint[] }): ReactElement {
  const { t } = useTranslation('threeD');
  const recent = useQuery({
    queryKey: threeDKeys.recent(device.deviceId),
    queryFn: () => fetchRecent(device.deviceId),
    retry: retryUnlessCancelled,
  });
  const key = mainQuantity(device.moduleId, device.values);
  const unit = key ? quantityLabel(device.moduleId, key).unit : '';
  const option = useMemo((): EChartOption | null => {
    if (!key) return null;
    const pts = [...(recent.data?.points ?? []), ...live]
      .filter((p) => p.values[key] !== undefined)
      .map((p) => [Date.parse(p.ts), p.values[key]!] as [number, number])
      .sort((a, b) => a[0] - b[0]);
    return {
      grid: { left: 44, right: 12, top: 24, bottom: 28 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time' },
      yAxis: { type: 'value', name: unit, scale: true },
      series: [{ type: 'line', showSymbol: false, data: pts, name: quantityLabel(device.moduleId, key).label }],
    };
  }, [recent.data, live, key, unit, device.moduleId]);
  const points = (recent.data?.points.length ?? 0) + live.length;
  const colour = deviceColour(device.state, device.alertLevel);
  const lang = currentLanguage();
  return (
    <div data-testid="three-d-device-panel">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {device.deviceName}
      </Typography.Title>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('fields.number')}>{device.number}</Descriptions.Item>
        <Descriptions.Item label={t('fields.type')}>{monitorTypeLabel(device.moduleId, lang)}</Descriptions.Item>
        <Descriptions.Item label={t('fields.state')}>
          <Tag color={colour} data-testid="three-d-device-state">
            {t(`state.${device.state}`)}
            {device.alertLevel ? ` · ${t(`level.${device.alertLevel}`)}` : ''}
          </Tag>
        </Descriptions.Item>
        {Object.entries(device.values)
          .filter(([k]) => quantityLabel(device.moduleId, k).label !== k)
          .slice(0, 6)
          .map(([k, v]) => {
            const q = quantityLabel(device.moduleId, k);
            return (
              <Descriptions.Item key={k} label={q.label}>
                <span data-testid={`three-d-value-${k}`}>
                  {formatValue(v)} {q.unit}
                </span>
              </Descriptions.Item>
            );
          })}
        <Descriptions.Item label={t('fields.lastReadingAt')}>
          {device.lastReadingAt ? formatTime(device.lastReadingAt) : '-'}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Text type="secondary" style={{ display: 'block', margin: '12px 0 4px' }}>
        {t('recent.title')}
      </Typography.Text>
      {option && points > 0 ? (
        <EChart option={option} notMerge height={200} data-testid="three-d-chart" />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('recent.none')} />
      )}
    </div>
  );
}
