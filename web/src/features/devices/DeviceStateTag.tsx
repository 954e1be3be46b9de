import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceState } from '@geosentry/contract';

/** Colours of the device states (spec §4): normal, alert, alarm, abnormal, offline. */
export const DEVICE_STATE_COLORS: Record<DeviceState, string> = {
  normal: 'green',
  alert: 'gold',
  alarm: 'red',
  abnormal: 'volcano',
  offline: 'default',
};

export function DeviceStateTag({ state }: { state: DeviceState }) {
  const { t } = useTranslation('devices');
  return (
    <Tag color={DEVICE_STATE_COLORS[state]} data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}
