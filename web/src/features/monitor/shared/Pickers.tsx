import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import type { DeviceOption } from '@geosentry/contract';
import { useMonitorTypes } from '../../../shared/catalogue.ts';
import type { MonitorSite } from '../../../shared/monitorSites.ts';

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
