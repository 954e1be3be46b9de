import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker, Flex, Select, Segmented, Tag, Tooltip } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import updateLocale from 'dayjs/plugin/updateLocale';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/ko';
import type { DeviceOption } from '@geosentry/contract';
import { useMonitorTypes } from '../../../shared/catalogue.ts';
import type { MonitorSite } from '../../../shared/monitorSites.ts';
import {
  AGGREGATIONS,
  TIME_RANGES,
  defaultCustom,
  type Aggregation,
  type TimeRange,
  type TimeRangeKind,
} from './timeRange.ts';
import { todayDate, type Period } from '../../../shared/time.ts';
import { useTimeZone } from '../../../shared/useTimeZone.ts';

// Weeks start on Monday in every language (the server's weeks do too): the calendars and week pickers follow.
dayjs.extend(updateLocale);
for (const l of ['en', 'ko']) dayjs.updateLocale(l, { weekStart: 1 });

const filterByLabel = (input: string, option?: { label?: unknown }) =>
  String(option?.label ?? '')
    .toLowerCase()
    .includes(input.toLowerCase());

export function SitePicker({
  sites,
  value,
  onChange,
  loading,
  id = 'monitor-site',
}: {
  sites: readonly MonitorSite[];
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  loading?: boolean;
  id?: string;
}) {
  const { t } = useTranslation('monitor');
  return (
    <Select
      id={id}
      data-testid={id}
      style={{ width: 220 }}
      showSearch={{ filterOption: filterByLabel }}
      placeholder={t('pick.site')}
      loading={loading}
      value={value}
      onChange={onChange}
      options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
      notFoundContent={t('empty.noSites')}
      aria-label={t('pick.site')}
    />
  );
}

export function ModulePicker({
  devices,
  value,
  onChange,
  allowAll = true,
  id = 'monitor-module',
}: {
  devices: readonly DeviceOption[];
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  allowAll?: boolean;
  id?: string;
}) {
  const { t } = useTranslation('monitor');
  const catalogue = useMonitorTypes();
  const ids = useMemo(() => [...new Set(devices.map((d) => d.moduleId))].sort((a, b) => a - b), [devices]);
  return (
    <Select
      id={id}
      data-testid={id}
      style={{ width: 200 }}
      allowClear={allowAll}
      placeholder={t('pick.allTypes')}
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      options={ids.map((m) => ({ value: m, label: catalogue.label(m) }))}
      aria-label={t('pick.module')}
    />
  );
}

/** One device, or (with `multiple`) several; labelled "name (number)", grouped by monitor type. */
export function DevicePicker({
  devices,
  value,
  onChange,
  id = 'monitor-device',
  width = 260,
  loading,
}: {
  devices: readonly DeviceOption[];
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  id?: string;
  width?: number;
  loading?: boolean;
}) {
  const { t } = useTranslation('monitor');
  const options = useDeviceOptionGroups(devices);
  return (
    <Select
      id={id}
      data-testid={id}
      style={{ width }}
      showSearch={{ filterOption: filterByLabel }}
      placeholder={t('pick.device')}
      loading={loading}
      value={value}
      onChange={onChange}
      options={options}
      notFoundContent={t('empty.noDevices')}
      aria-label={t('pick.device')}
    />
  );
}

export function useDeviceOptionGroups(devices: readonly DeviceOption[]) {
  const catalogue = useMonitorTypes();
  return useMemo(() => {
    const groups = new Map<number, DeviceOption[]>();
    for (const d of devices) groups.set(d.moduleId, [...(groups.get(d.moduleId) ?? []), d]);
    return [...groups.entries()]
      .sort(([a], [b]) => a - b)
      .map(([moduleId, list]) => ({
        label: catalogue.label(moduleId),
        title: String(moduleId),
        options: list.map((d) => ({ value: d.deviceId, label: `${d.deviceName} (${d.number})` })),
      }));
  }, [devices, catalogue]);
}

export function QuantityPicker({
  moduleId,
  value,
  onChange,
  id = 'monitor-quantity',
}: {
  moduleId: number | undefined;
  value: string | undefined;
  onChange: (key: string) => void;
  id?: string;
}) {
  const { t } = useTranslation('monitor');
  const catalogue = useMonitorTypes();
  const quantities = catalogue.quantities(moduleId);
  return (
    <Select
      id={id}
      data-testid={id}
      style={{ width: 200 }}
      placeholder={t('pick.quantity')}
      value={value}
      onChange={onChange}
      options={quantities.map((q) => ({ value: q.key, label: q.unit ? `${q.text} (${q.unit})` : q.text }))}
      aria-label={t('pick.quantity')}
    />
  );
}

/** Picker formats of a custom range by period (weeks as antd shows them). */
const PERIOD_FORMAT: Record<Period, string | undefined> = {
  day: 'YYYY-MM-DD',
  week: undefined,
  month: 'YYYY-MM',
  year: 'YYYY',
};

/**
 * A preset range (spec §9) or a custom one of calendar days, or of weeks (Monday), months or years when the
 * data is aggregated by them; "today" and the calendar follow the user's zone, named beside the picker when
 * it is not the browser's.
 */
export function TimeRangePicker({
  value,
  onChange,
  id = 'monitor-range',
  period = 'day',
}: {
  value: TimeRange;
  onChange: (r: TimeRange) => void;
  id?: string;
  period?: Period;
}) {
  const { t } = useTranslation('monitor');
  const { zone } = useTimeZone();
  return (
    <Flex gap={8} wrap align="center">
      <Select<TimeRangeKind>
        id={id}
        data-testid={id}
        style={{ width: 150 }}
        value={value.kind}
        onChange={(kind) =>
          onChange({ kind, custom: kind === 'custom' ? (value.custom ?? defaultCustom(zone)) : null })
        }
        options={TIME_RANGES.map((k) => ({ value: k, label: t(`range.${k}`) }))}
        aria-label={t('pick.range')}
      />
      {value.kind === 'custom' ? (
        <DatePicker.RangePicker
          data-testid={`${id}-custom`}
          picker={period === 'day' ? 'date' : period}
          format={PERIOD_FORMAT[period]}
          allowClear={false}
          value={value.custom ?? null}
          disabledDate={(d: Dayjs) => d.format('YYYY-MM-DD') > todayDate(zone)}
          onChange={(v) => onChange({ kind: 'custom', custom: v && v[0] && v[1] ? [v[0], v[1]] : null })}
        />
      ) : null}
      <ZoneTag />
    </Flex>
  );
}

/** The user's zone, shown where times are picked or listed when it is not the browser's (else nothing). */
export function ZoneTag({ testId = 'monitor-zone' }: { testId?: string }) {
  const { t } = useTranslation('monitor');
  const { label } = useTimeZone();
  if (!label) return null;
  return (
    <Tooltip title={t('zone.hint')}>
      <Tag icon={<GlobalOutlined />} data-testid={testId} style={{ marginInlineEnd: 0 }}>
        {label}
      </Tag>
    </Tooltip>
  );
}

export function AggregationPicker({
  value,
  onChange,
  id = 'monitor-aggregation',
}: {
  value: Aggregation;
  onChange: (a: Aggregation) => void;
  id?: string;
}) {
  const { t } = useTranslation('monitor');
  return (
    <Segmented<Aggregation>
      data-testid={id}
      value={value}
      onChange={onChange}
      options={AGGREGATIONS.map((a) => ({ value: a, label: t(`aggregation.${a}`) }))}
    />
  );
}
