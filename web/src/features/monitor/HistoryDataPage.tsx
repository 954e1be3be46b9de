import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Alert, Button, Card, Checkbox, Col, Empty, Flex, Row, Segmented, Statistic, Skeleton, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import type { HistoryPoint, StatisticsType } from '@geosentry/contract';
import { hasPermission, useSession } from '../../shared/session.ts';
import { EChart } from '../../shared/charts/EChart.tsx';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { DevicePicker, QuantityPicker, SitePicker } from './shared/Pickers.tsx';
import { AggregationPicker, TimeRangePicker } from './shared/TimePickers.tsx';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { useChosenDevice } from './shared/useDeviceChoice.ts';
import { fmtValue, useQuantityText } from './shared/format.ts';
import {
  fmtPeriod,
  fmtTime,
  isRangeComplete,
  periodOf,
  resolveRange,
  type Aggregation,
  type TimeRange,
} from './shared/timeRange.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { timeChartOption, type ChartSeries } from './shared/seriesChart.ts';
import { downloadCsv } from './shared/csv.ts';
import { downloadReport, fetchHistory, fetchMaxMinAvg, liveKeys, rangeParams } from './monitorApi.ts';
import './monitor.css';

// The table view is the second one: antd's Table loads when it is first shown, not with the chart.
const Table = lazy(() => import('antd/es/table')) as unknown as typeof import('antd/es/table').default;

const DERIVED_KEYS = ['rate', 'acceleration', 'variation'] as const;
type DerivedKey = (typeof DERIVED_KEYS)[number];

/** Monitor > Historical data: one device's quantity over a range, raw or aggregated, as a chart or a table. */
export default function HistoryDataPage() {
  const { t } = useTranslation('monitor');
  const { message } = App.useApp();
  const session = useSession();
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const siteDevices = useSiteDevices(platformId);
  const [device, setDeviceId] = useChosenDevice(siteDevices.data);
  const text = useQuantityText();
  const [quantityChoice, setQuantity] = useState<string | undefined>();
  const [range, setRange] = useState<TimeRange>({ kind: '24h' });
  const [aggregation, setAggregation] = useState<Aggregation>('original');
  const [derived, setDerived] = useState<DerivedKey[]>([]);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const [exporting, setExporting] = useState(false);
  const { zone, label: zoneLabel } = useTimeZone();
  const period = periodOf(aggregation);

  const quantities = device ? text.catalogue.quantities(device.moduleId) : [];
  const quantity = quantities.some((q) => q.key === quantityChoice) ? quantityChoice : quantities[0]?.key;
  const complete = isRangeComplete(range);
  const params = { deviceId: device?.deviceId, quantity, range, aggregation };
  const history = useQuery({
    queryKey: liveKeys.history({ ...params, range: rangeParams(range, period) }),
    queryFn: () => fetchHistory(params),
    enabled: device !== undefined && quantity !== undefined && complete,
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const stats = useQuery({
    queryKey: ['monitor', 'stats', device?.deviceId, quantity, rangeParams(range, period)],
    queryFn: () => fetchMaxMinAvg(device!.deviceId, quantity, range, period),
    enabled: device !== undefined && quantity !== undefined && complete,
    retry: retryUnlessCancelled,
  });

  const series = history.data?.devices[0]?.series.find((s) => s.quantity === quantity);
  const answered: Aggregation = history.data?.aggregation ?? 'original';
  const aggregated = answered !== 'original';
  // Accumulated quantities (rainfall) are answered as bucket totals: shown and labelled as a total.
  const summed = aggregated && series?.aggregate === 'sum';
  const points = useMemo(
    () => (summed ? (series?.points ?? []).map((p) => ({ ...p, value: p.sum ?? p.value })) : (series?.points ?? [])),
    [series, summed],
  );
  const unit = series?.unit ?? '';
  const label = series?.label ?? quantity ?? '';
  const valueTitle = `${summed ? t('col.total') : aggregated ? t('col.avg') : t('col.value')}${unit ? ` (${unit})` : ''}`;
  const timeTitle = withZone(aggregated ? t('col.period') : t('col.time'), zoneLabel);
  const timeText = (ts: string) => fmtPeriod(ts, answered, history.data?.timeZone ?? zone);

  const option = useMemo(() => {
    const list: ChartSeries[] = [
      { name: summed ? `${label} (${t('col.total')})` : label, unit, points, band: aggregated && !summed, bar: summed },
    ];
    for (const k of derived)
      list.push({
        name: t(`derived.${k}`),
        unit: `${unit} (${t(`derived.${k}`)})`,
        points,
        field: k,
        yAxis: 1,
        dashed: true,
      });
    return timeChartOption(list, { min: t('col.min'), max: t('col.max') }, zone);
  }, [points, derived, label, unit, aggregated, summed, zone, t]);

  const columns: TableColumnsType<HistoryPoint> = [
    { key: 'ts', title: timeTitle, width: zoneLabel ? 240 : 180, render: (_, p) => timeText(p.ts) },
    { key: 'value', title: valueTitle, render: (_, p) => fmtValue(p.value) },
    ...(aggregated
      ? [
          { key: 'min', title: t('col.min'), render: (_: unknown, p: HistoryPoint) => fmtValue(p.min) },
          { key: 'max', title: t('col.max'), render: (_: unknown, p: HistoryPoint) => fmtValue(p.max) },
          { key: 'count', title: t('col.count'), render: (_: unknown, p: HistoryPoint) => p.count ?? '-' },
        ]
      : []),
    { key: 'rate', title: t('derived.rate'), render: (_, p) => fmtValue(p.rate) },
    { key: 'acceleration', title: t('derived.acceleration'), render: (_, p) => fmtValue(p.acceleration) },
    { key: 'variation', title: t('derived.variation'), render: (_, p) => fmtValue(p.variation) },
  ];

  const exportCsv = () => {
    if (!device) return;
    const header = [
      timeTitle,
      valueTitle,
      ...(aggregated ? [t('col.min'), t('col.max'), t('col.count')] : []),
      t('derived.rate'),
      t('derived.acceleration'),
      t('derived.variation'),
    ];
    const rows = points.map((p) => [
      timeText(p.ts),
      p.value,
      ...(aggregated ? [p.min ?? '', p.max ?? '', p.count ?? ''] : []),
      p.rate ?? '',
      p.acceleration ?? '',
      p.variation,
    ]);
    downloadCsv(`${device.deviceName}-${quantity}-${fmtTime(Date.now()).slice(0, 10)}.csv`, header, rows);
  };

  const exportXlsx = async () => {
    if (!device || !platformId) return;
    const { start, end } = resolveRange(range, { zone, period });
    const statisticsType: StatisticsType =
      aggregation === 'week' || aggregation === 'month' || aggregation === 'year' ? aggregation : 'day';
    setExporting(true);
    try {
      await downloadReport({
        platformId,
        moduleId: device.moduleId,
        deviceName: device.deviceName,
        startTime: new Date(start).toISOString(),
        endTime: new Date(end).toISOString(),
        statisticsType,
        timeZone: zone,
      });
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setExporting(false);
    }
  };

  const st = stats.data?.stats.find((s) => s.quantity === quantity);
  // An accumulated quantity's figure over the range is its total, not an average.
  const statTotal = st?.aggregate === 'sum';
  const empty = !history.isLoading && points.length === 0;
  return (
    <Flex vertical gap={12} data-testid="monitor-history">
      <Card className="gs-monitor-toolbar" variant="borderless">
        <Flex vertical gap={10}>
          <Flex gap={12} wrap align="center">
            <h5 className="gs-section-title">{t('history.title')}</h5>
            <SitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={sitesLoading} />
            <DevicePicker
              devices={siteDevices.data ?? []}
              value={device?.deviceId}
              onChange={setDeviceId}
              loading={siteDevices.isLoading}
            />
            <QuantityPicker moduleId={device?.moduleId} value={quantity} onChange={setQuantity} />
            <TimeRangePicker value={range} onChange={setRange} period={period} />
          </Flex>
          <Flex gap={12} wrap align="center">
            <AggregationPicker value={aggregation} onChange={setAggregation} />
            <Checkbox.Group<DerivedKey>
              data-testid="history-derived"
              value={derived}
              onChange={setDerived}
              options={DERIVED_KEYS.map((k) => ({ value: k, label: t(`derived.${k}`) }))}
            />
            <div style={{ flex: 1 }} />
            <Segmented<'chart' | 'table'>
              data-testid="history-view"
              value={view}
              onChange={setView}
              options={[
                { value: 'chart', label: t('history.viewChart') },
                { value: 'table', label: t('history.viewTable') },
              ]}
            />
            <Button
              icon={<DownloadOutlined />}
              onClick={exportCsv}
              disabled={points.length === 0}
              data-testid="history-csv"
            >
              CSV
            </Button>
            {hasPermission('monitor:report', session) ? (
              <Button
                icon={<FileExcelOutlined />}
                onClick={() => void exportXlsx()}
                loading={exporting}
                disabled={!device}
                data-testid="history-xlsx"
              >
                {t('history.xlsx')}
              </Button>
            ) : null}
          </Flex>
        </Flex>
      </Card>
      {!complete ? <Alert type="warning" showIcon title={t('error.rangeIncomplete')} /> : null}
      {history.isError ? (
        <Alert type="error" showIcon title={(history.error as Error).message || t('error.load')} />
      ) : null}
      <Row gutter={[12, 12]}>
        {(
          [
            ['max', st?.max, st?.maxTs],
            ['min', st?.min, st?.minTs],
            statTotal ? (['total', st?.sum, null] as const) : (['avg', st?.avg, null] as const),
            ['change', st?.change, null],
            ['count', st?.count, null],
          ] as const
        ).map(([k, v, at]) => (
          <Col key={k} flex="1" style={{ minWidth: 150 }}>
            <Card variant="borderless" size="small" data-testid={`history-stat-${k}`}>
              <Statistic
                title={t(`col.${k}`)}
                value={v === null || v === undefined ? '-' : k === 'count' ? v : fmtValue(v)}
                suffix={k !== 'count' && v !== null && v !== undefined ? unit : undefined}
                valueStyle={{ fontSize: 20 }}
              />
              <span className="gs-muted" style={{ fontSize: 12 }}>
                {at ? fmtTime(at) : '\u00a0'}
              </span>
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        variant="borderless"
        styles={{ body: { padding: 12 } }}
        title={
          <Flex gap={8} align="center" wrap>
            <span>{device ? `${device.deviceName} · ${label}` : t('pick.device')}</span>
            {series ? (
              <Tag data-testid="history-count">
                {series.downsampled
                  ? t('history.downsampled', { shown: points.length, total: series.total })
                  : t('history.points', { count: points.length })}
              </Tag>
            ) : null}
          </Flex>
        }
      >
        {!device && !siteDevices.isLoading ? (
          <Empty description={t('empty.noDevices')} />
        ) : empty ? (
          <Empty description={t('empty.noData')} data-testid="history-empty" />
        ) : view === 'chart' ? (
          <EChart option={option} notMerge height={420} loading={history.isFetching} data-testid="history-chart" />
        ) : (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <Table<HistoryPoint>
              data-testid="history-table"
              rowKey="ts"
              size="small"
              columns={columns}
              dataSource={[...points].reverse()}
              loading={history.isFetching}
              pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [20, 50, 100] }}
              scroll={{ x: 800 }}
            />
          </Suspense>
        )}
      </Card>
    </Flex>
  );
}
