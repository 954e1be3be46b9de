import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Flex,
  Segmented,
  Select,
  Table,
  Typography,
  message,
} from 'antd';
import { DownloadOutlined, FundProjectionScreenOutlined, PlayCircleOutlined } from '@ant-design/icons';
import {
  RESERVOIR_STATISTICS_TYPES,
  monitorTypeLabel,
  quantitiesOf,
  type ComprehensiveReport,
  type ReservoirStatisticsType,
} from '@geosentry/contract';
import { EChart, type EChartOption } from '../../shared/charts/EChart.tsx';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { dateOf, pickerValue, shiftDate, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  downloadComprehensive,
  fetchComprehensive,
  fetchSections,
  reservoirKeys,
  type ComprehensiveParams,
} from './reservoirApi.ts';

type Group = ComprehensiveReport['groups'][number];

function levelChart(r: ComprehensiveReport, t: (k: string) => string): EChartOption {
  const marks = [
    ...(r.floodLevel !== null
      ? [{ yAxis: r.floodLevel, name: t('report.flood'), lineStyle: { color: '#c62828' } }]
      : []),
    ...(r.limitedFloodLevel !== null
      ? [{ yAxis: r.limitedFloodLevel, name: t('report.limited'), lineStyle: { color: '#f9a825' } }]
      : []),
  ];
  const P = r.water.periods;
  return {
    animation: false,
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    grid: { left: 56, right: 96, top: 40, bottom: 40 },
    xAxis: { type: 'category', data: P.map((p) => p.label) },
    yAxis: { type: 'value', name: 'm', scale: true },
    series: [
      {
        type: 'line',
        name: t('report.avg'),
        data: P.map((p) => p.avg),
        markLine: { symbol: 'none', label: { formatter: '{b}: {c} m' }, data: marks },
      },
      { type: 'line', name: t('report.max'), data: P.map((p) => p.max), lineStyle: { type: 'dashed' } },
    ],
  };
}

/**
 * The reservoir comprehensive report (monitor:report): water level against the flood and flood-limited levels,
 * storage from the capacity table, seepage, deformation and rainfall of the period; downloads as xlsx and PDF.
 * Test hooks: res-site, res-section, res-stat, res-range, res-run, res-water-table, res-xlsx, res-pdf.
 */
export default function ReservoirReportPage() {
  const { t } = useTranslation('reservoir');
  const [msg, msgHolder] = message.useMessage();
  const lang = currentLanguage();
  const { zone } = useTimeZone();
  const { sites } = useSiteOptions();
  const reservoirs = sites.filter((s) => s.type === 'reservoir');
  const [platformId, setPlatformId] = useState<number | undefined>();
  const chosen = platformId ?? reservoirs[0]?.platformId;
  const sections = useQuery({
    queryKey: reservoirKeys.sections(chosen ?? 0),
    queryFn: () => fetchSections(chosen ?? 0),
    enabled: chosen !== undefined,
  });
  const [segmentId, setSegmentId] = useState<number | undefined>();
  const [stat, setStat] = useState<ReservoirStatisticsType>('day');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const today = todayDate(zone);
    return [pickerValue(shiftDate(today, -29)), pickerValue(today)];
  });
  const [asked, setAsked] = useState<ComprehensiveParams | null>(null);
  const [busy, setBusy] = useState<'xlsx' | 'pdf' | null>(null);
  const q = useQuery({
    queryKey: reservoirKeys.report(asked ?? ({} as ComprehensiveParams)),
    queryFn: () => fetchComprehensive(asked!),
    enabled: asked !== null,
    retry: retryUnlessCancelled,
  });
  const r = q.data;
  const option = useMemo(() => (r ? levelChart(r, t) : null), [r, t]);
  const run = () =>
    chosen !== undefined &&
    setAsked({
      platformId: chosen,
      segmentId,
      statisticsType: stat,
      startTime: dateOf(range[0]),
      endTime: dateOf(range[1]),
      timeZone: zone,
    });
  const download = async (format: 'xlsx' | 'pdf') => {
    if (!asked) return;
    setBusy(format);
    try {
      await downloadComprehensive(asked, format);
    } catch (e) {
      void msg.error((e as Error).message || t('report.downloadFailed'), 1);
    } finally {
      setBusy(null);
    }
  };
  const v = (x: number | null, unit: string) => (x === null ? '—' : `${x} ${unit}`);
  const groupTable = (g: Group) => {
    const rain = g.group === 'rain';
    return (
      <Table
        size="small"
        pagination={false}
        rowKey={(d) => `${d.deviceId}-${d.quantity}`}
        dataSource={g.devices}
        locale={{ emptyText: t('report.noDevices') }}
        columns={[
          { title: t('report.device'), dataIndex: 'deviceName' },
          { title: t('report.type'), dataIndex: 'moduleId', render: (m: number) => monitorTypeLabel(m, lang) },
          {
            title: t('report.quantity'),
            key: 'q',
            render: (_x, d) =>
              `${quantitiesOf(d.moduleId).find((x) => x.key === d.quantity)?.label[lang] ?? d.quantity}${d.unit ? ` (${d.unit})` : ''}`,
          },
          ...(rain
            ? [{ title: t('report.sum'), dataIndex: 'sum', align: 'right' as const }]
            : [
                { title: t('report.avg'), dataIndex: 'avg', align: 'right' as const },
                { title: t('report.max'), dataIndex: 'max', align: 'right' as const },
                { title: t('report.min'), dataIndex: 'min', align: 'right' as const },
                { title: t('report.last'), dataIndex: 'last', align: 'right' as const },
                { title: t('report.change'), dataIndex: 'change', align: 'right' as const },
              ]),
        ]}
      />
    );
  };
  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard
        icon={<FundProjectionScreenOutlined />}
        title={t('report.title')}
        description={t('report.description')}
      />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center">
          <Select<number>
            data-testid="res-site"
            style={{ width: 200 }}
            placeholder={t('levels.reservoir')}
            value={chosen}
            options={reservoirs.map((s) => ({ value: s.platformId, label: s.name }))}
            onChange={(id) => {
              setPlatformId(id);
              setSegmentId(undefined);
            }}
          />
          <Select<number>
            data-testid="res-section"
            style={{ width: 160 }}
            allowClear
            placeholder={t('report.firstSection')}
            value={segmentId}
            options={(sections.data ?? []).map((s) => ({ value: s.segmentId, label: s.name }))}
            onChange={(x) => setSegmentId(x ?? undefined)}
          />
          <Segmented<ReservoirStatisticsType>
            data-testid="res-stat"
            value={stat}
            options={RESERVOIR_STATISTICS_TYPES.map((s) => ({ value: s, label: t(`stat.${s}`) }))}
            onChange={setStat}
          />
          <DatePicker.RangePicker
            data-testid="res-range"
            allowClear={false}
            value={range}
            onChange={(x) => x?.[0] && x[1] && setRange([x[0], x[1]])}
          />
          <Button
            type="primary"
            data-testid="res-run"
            icon={<PlayCircleOutlined />}
            loading={q.isFetching}
            onClick={run}
          >
            {t('report.run')}
          </Button>
          <Button
            data-testid="res-xlsx"
            icon={<DownloadOutlined />}
            disabled={!r}
            loading={busy === 'xlsx'}
            onClick={() => void download('xlsx')}
          >
            xlsx
          </Button>
          <Button
            data-testid="res-pdf"
            icon={<DownloadOutlined />}
            disabled={!r}
            loading={busy === 'pdf'}
            onClick={() => void download('pdf')}
          >
            PDF
          </Button>
        </Flex>
      </Card>
      {q.error ? <Alert type="error" showIcon message={(q.error as Error).message} /> : null}
      {!r && !q.isFetching && !q.error ? <Alert type="info" showIcon message={t('report.hint')} /> : null}
      {r && (
        <>
          <Card variant="borderless" title={t('report.water')}>
            <Flex vertical gap={12}>
              <Descriptions
                size="small"
                column={4}
                items={[
                  {
                    label: t('report.source'),
                    children:
                      r.source === 'auto'
                        ? `${t('report.auto')} (${r.deviceName ?? t('report.noDevice')})`
                        : `${t('report.manual')}${r.segmentName ? ` (${r.segmentName})` : ''}`,
                  },
                  { label: t('report.flood'), children: v(r.floodLevel, 'm') },
                  { label: t('report.limited'), children: v(r.limitedFloodLevel, 'm') },
                  { label: t('report.overLimited'), children: r.water.overLimitedPeriods },
                  { label: t('report.first'), children: v(r.water.first, 'm') },
                  { label: t('report.last'), children: v(r.water.last, 'm') },
                  { label: t('report.max'), children: v(r.water.max, 'm') },
                  { label: t('report.min'), children: v(r.water.min, 'm') },
                  { label: t('report.storageFirst'), children: v(r.water.storageFirst, t('units.storage')) },
                  { label: t('report.storageLast'), children: v(r.water.storageLast, t('units.storage')) },
                  { label: t('report.storageChange'), children: v(r.water.storageChange, t('units.storage')) },
                  { label: t('report.zone'), children: r.timeZone },
                ]}
              />
              {option && <EChart option={option} style={{ height: 320 }} />}
              <Table
                data-testid="res-water-table"
                size="small"
                rowKey="period"
                dataSource={r.water.periods}
                pagination={{ pageSize: 31, hideOnSinglePage: true }}
                columns={[
                  { title: t('report.period'), dataIndex: 'label' },
                  { title: `${t('report.avg')} (m)`, dataIndex: 'avg', align: 'right' },
                  { title: `${t('report.max')} (m)`, dataIndex: 'max', align: 'right' },
                  { title: `${t('report.min')} (m)`, dataIndex: 'min', align: 'right' },
                  { title: `${t('report.last')} (m)`, dataIndex: 'last', align: 'right' },
                  { title: `${t('levels.storage')} (${t('units.storage')})`, dataIndex: 'storage', align: 'right' },
                ]}
              />
              <Typography.Text type="secondary">{t('report.storageNote')}</Typography.Text>
            </Flex>
          </Card>
          {r.groups.map((g) => (
            <Card key={g.group} variant="borderless" title={t(`groups.${g.group}`)}>
              {groupTable(g)}
            </Card>
          ))}
        </>
      )}
    </Flex>
  );
}
