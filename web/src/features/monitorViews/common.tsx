import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Card, Empty, Flex, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { formatTime } from '../../shared/time.ts';
import { DEVICE_STATES, type DeviceState, type StateCounts, type ViewDevice, type ViewSite } from '@geosentry/contract';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { STATE_COLORS, shownQuantities } from './live.ts';
import './monitorViews.css';

/** A reading value as shown: up to 3 decimals, '-' when missing. */
export function fmtValue(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-';
  const k = 10 ** digits;
  return String(Math.round(v * k) / k);
}

/** In the user's time zone (issue 14). */
export const fmtTime = (iso: string | null | undefined): string => formatTime(iso);

/** The toolbar of a view: site picker and controls on the left, status on the right. */
export function ViewToolbar({ children, extra }: { children: ReactNode; extra?: ReactNode }) {
  return (
    <Card size="small" className="gs-view-toolbar">
      <Flex wrap gap={12} align="center" justify="space-between">
        <Flex wrap gap={12} align="center">
          {children}
        </Flex>
        {extra ? (
          <Flex wrap gap={12} align="center">
            {extra}
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}

export function ViewSitePicker({
  sites,
  value,
  onChange,
  loading,
  id = 'view-site',
}: {
  sites: readonly ViewSite[];
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  loading?: boolean;
  id?: string;
}) {
  const { t } = useTranslation('monitorViews');
  return (
    <Space size={6}>
      <Typography.Text type="secondary">{t('pick.site')}</Typography.Text>
      <Select<number>
        id={id}
        data-testid={id}
        style={{ width: 240 }}
        showSearch={{
          filterOption: (input, option) =>
            String(option?.label ?? '')
              .toLowerCase()
              .includes(input.toLowerCase()),
        }}
        placeholder={t('pick.site')}
        aria-label={t('pick.site')}
        loading={loading}
        value={value}
        onChange={(v) => onChange(v ?? undefined)}
        options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
        notFoundContent={t('empty.noSites')}
      />
    </Space>
  );
}

export function LiveStatus({ connected, supported }: { connected: boolean; supported: boolean }) {
  const { t } = useTranslation('monitorViews');
  if (!supported) return <Alert type="warning" showIcon title={t('common:socket.unsupported')} />;
  return (
    <Tooltip title={connected ? t('live.onHelp') : t('live.offHelp')}>
      <Badge
        status={connected ? 'processing' : 'default'}
        text={connected ? t('live.on') : t('live.off')}
        data-testid="view-live"
        data-connected={connected ? '1' : '0'}
      />
    </Tooltip>
  );
}

export function StateTag({ state }: { state: DeviceState }) {
  const { t } = useTranslation('devices');
  return (
    <Tag color={STATE_COLORS[state]} data-state={state} style={{ marginInlineEnd: 0 }}>
      {t(`state.${state}`)}
    </Tag>
  );
}

export function StateDot({ state, size = 10 }: { state: DeviceState; size?: number }) {
  return (
    <span
      className={`gs-view-dot${state === 'alarm' || state === 'alert' ? ' gs-view-dot-pulse' : ''}`}
      style={{ width: size, height: size, background: STATE_COLORS[state] }}
      data-state={state}
    />
  );
}

/** The device counts by state as coloured chips (zero counts dimmed). */
export function StateCountsBar({ counts, testId }: { counts: StateCounts; testId?: string }) {
  const { t } = useTranslation('devices');
  return (
    <Flex gap={8} wrap data-testid={testId}>
      {DEVICE_STATES.map((s) => (
        <div
          key={s}
          className="gs-view-count"
          style={{ borderColor: STATE_COLORS[s], opacity: counts[s] === 0 ? 0.45 : 1 }}
          data-state={s}
        >
          <span className="gs-view-count-n" style={{ color: STATE_COLORS[s] }}>
            {counts[s]}
          </span>
          <span className="gs-view-count-l">{t(`state.${s}`)}</span>
        </div>
      ))}
    </Flex>
  );
}

/** The newest values of a device: "label value unit" for each quantity it reported. */
export function DeviceValues({
  device,
  withCommon = false,
  max,
}: {
  device: Pick<ViewDevice, 'moduleId' | 'lastValues'>;
  withCommon?: boolean;
  max?: number;
}) {
  const { t } = useTranslation('monitorViews');
  const types = useMonitorTypes();
  const keys = shownQuantities(device, withCommon).slice(0, max);
  if (keys.length === 0) return <Typography.Text type="secondary">{t('device.noData')}</Typography.Text>;
  const meta = types.quantities(device.moduleId);
  return (
    <span className="gs-view-values">
      {keys.map((k) => {
        const q = meta.find((x) => x.key === k);
        return (
          <span key={k} className="gs-view-value" data-quantity={k}>
            <span className="gs-view-q">{q?.text ?? k}</span>
            <span className="gs-view-v">{fmtValue(device.lastValues[k])}</span>
            {q?.unit ? <span className="gs-view-u">{q.unit}</span> : null}
          </span>
        );
      })}
    </span>
  );
}

/** The main value of a device with its unit, for markers. */
export function useMainValue() {
  const types = useMonitorTypes();
  return (d: Pick<ViewDevice, 'moduleId' | 'lastValues'>): string => {
    const k = shownQuantities(d)[0];
    if (!k) return '-';
    const unit = types.quantities(d.moduleId).find((q) => q.key === k)?.unit ?? '';
    return `${fmtValue(d.lastValues[k], 2)}${unit ? ` ${unit}` : ''}`;
  };
}

export function NoSite({ loading }: { loading?: boolean }) {
  const { t } = useTranslation('monitorViews');
  if (loading) return null;
  return (
    <Card>
      <Empty description={t('empty.noSites')} />
    </Card>
  );
}
