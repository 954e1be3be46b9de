import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { App, Alert, Card, Empty, Flex, Select, Tag } from 'antd';
import type { DeviceOption } from '@geosentry/contract';
import { EChart } from '../../shared/charts/EChart.tsx';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { QuantityPicker, SitePicker, useDeviceOptionGroups } from './shared/Pickers.tsx';
import { AggregationPicker, TimeRangePicker } from './shared/TimePickers.tsx';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { useQuantityText } from './shared/format.ts';
import { isRangeComplete, periodOf, type Aggregation, type TimeRange } from './shared/timeRange.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { timeChartOption, type ChartSeries } from './shared/seriesChart.ts';
import { fetchHistory, liveKeys, rangeParams } from './monitorApi.ts';
import './monitor.css';

/** Spec §5: the comparison needs exactly 2 devices. */
export const COMPARE_COUNT = 2;

/** Monitor > Data comparison: two devices on one chart, with a second y axis when their units differ. */
export default function DataComparisonPage() {
  const { t } = useTranslation('monitor');
  const { message } = App.useApp();
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const siteDevices = useSiteDevices(platformId);
  const groups = useDeviceOptionGroups(siteDevices.data ?? []);
  const text = useQuantityText();
  const [ids, setIds] = useState<number[]>([]);
  const [quantityOf, setQuantityOf] = useState<Record<number, string>>({});
  const [range, setRange] = useState<TimeRange>({ kind: '7d' });
  const [aggregation, setAggregation] = useState<Aggregation>('original');
  const complete = isRangeComplete(range);
  const period = periodOf(aggregation);
  const { zone } = useTimeZone();

  const byId = useMemo(() => new Map((siteDevices.data ?? []).map((d) => [d.deviceId, d])), [siteDevices.data]);
  const chosen = ids.map((id) => byId.get(id)).filter((d): d is DeviceOption => d !== undefined);
  const quantity = (d: DeviceOption) => {
    const qs = text.catalogue.quantities(d.moduleId);
    const q = quantityOf[d.deviceId];
    return qs.some((x) => x.key === q) ? q : qs[0]?.key;
  };

  const onPick = (next: number[]) => {
    if (next.length > COMPARE_COUNT) {
      void message.warning(t('comparison.exactlyTwo'));
      return;
    }
    setIds(next);
  };

  const results = useQueries({
    queries: chosen.map((d) => {
      const q = quantity(d);
      return {
        queryKey: liveKeys.history({
          compare: d.deviceId,
          quantity: q,
          range: rangeParams(range, period),
          aggregation,
        }),
        queryFn: () => fetchHistory({ deviceId: d.deviceId, quantity: q, range, aggregation }, true),
        enabled: chosen.length === COMPARE_COUNT && complete && q !== undefined,
        placeholderData: keepPreviousData,
        retry: retryUnlessCancelled,
      };
    }),
  });

  const ready = chosen.length === COMPARE_COUNT && results.every((r) => r.data);
  const series: ChartSeries[] = useMemo(() => {
    if (!ready) return [];
    const out: ChartSeries[] = [];
    const units: string[] = [];
    results.forEach((r, i) => {
      const d = chosen[i]!;
      const s = r.data?.devices[0]?.series.find((x) => x.quantity === quantity(d));
      if (!s) return;
      let axis = units.indexOf(s.unit);
      if (axis < 0) axis = units.push(s.unit) - 1;
      // Bucket totals of an accumulated quantity (rainfall) are named as totals.
      const total = r.data?.aggregation !== 'original' && s.aggregate === 'sum';
      out.push({
        name: `${d.deviceName} · ${s.label}${total ? ` (${t('col.total')})` : ''}`,
        unit: s.unit,
        points: s.points,
        yAxis: axis,
        bar: total,
      });
    });
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, results.map((r) => r.dataUpdatedAt).join(','), ids.join(','), JSON.stringify(quantityOf), t]);
  const option = useMemo(
    () => timeChartOption(series, { min: t('col.min'), max: t('col.max') }, zone),
    [series, zone, t],
  );
  const loading = results.some((r) => r.isFetching);
  const failed = results.find((r) => r.isError);
  const noPoints = ready && series.every((s) => s.points.length === 0);

  return (
    <Flex vertical gap={12} data-testid="monitor-comparison">
      <Card className="gs-monitor-toolbar" variant="borderless">
        <Flex vertical gap={10}>
          <Flex gap={12} wrap align="center">
            <h5 className="gs-section-title">{t('comparison.title')}</h5>
            <SitePicker
              sites={sites}
              value={platformId}
              onChange={(id) => {
                setPlatformId(id);
                setIds([]);
              }}
              loading={sitesLoading}
            />
            <Select<number[]>
              id="compare-devices"
              data-testid="compare-devices"
              mode="multiple"
              maxTagCount="responsive"
              style={{ minWidth: 320, maxWidth: 520 }}
              placeholder={t('comparison.pickTwo')}
              value={ids}
              onChange={onPick}
              options={groups}
              showSearch={{
                filterOption: (input, o) =>
                  String(o?.label ?? '')
                    .toLowerCase()
                    .includes(input.toLowerCase()),
              }}
              aria-label={t('comparison.pickTwo')}
            />
            <TimeRangePicker value={range} onChange={setRange} period={period} />
          </Flex>
          <Flex gap={12} wrap align="center">
            <AggregationPicker value={aggregation} onChange={setAggregation} />
            {chosen.map((d, i) => (
              <Flex key={d.deviceId} gap={6} align="center">
                <Tag color={i === 0 ? 'blue' : 'orange'}>{d.deviceName}</Tag>
                <QuantityPicker
                  id={`compare-quantity-${i}`}
                  moduleId={d.moduleId}
                  value={quantity(d)}
                  onChange={(k) => setQuantityOf((m) => ({ ...m, [d.deviceId]: k }))}
                />
              </Flex>
            ))}
          </Flex>
        </Flex>
      </Card>
      {!complete ? <Alert type="warning" showIcon title={t('error.rangeIncomplete')} /> : null}
      {failed ? <Alert type="error" showIcon title={(failed.error as Error).message || t('error.load')} /> : null}
      <Card variant="borderless" styles={{ body: { padding: 12 } }}>
        {chosen.length !== COMPARE_COUNT ? (
          <Empty description={t('comparison.exactlyTwo')} data-testid="compare-hint" />
        ) : noPoints ? (
          <Empty description={t('empty.noData')} />
        ) : (
          <EChart option={option} notMerge height={460} loading={loading || !ready} data-testid="compare-chart" />
        )}
      </Card>
    </Flex>
  );
}
