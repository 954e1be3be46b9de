import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Flex,
  InputNumber,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  message,
} from 'antd';
import { DownloadOutlined, PlayCircleOutlined, ThunderboltOutlined } from '@ant-design/icons';
import {
  DEFAULT_LIMIT_CURVE,
  LIMIT_CURVES,
  VIBRATION_LIMITS,
  VIBRATION_MODULE_ID,
  curvePoints,
  limitCurve,
  type VibrationEvent,
  type VibrationVerdict,
} from '@geosentry/contract';
import { EChart, type EChartOption } from '../../shared/charts/EChart.tsx';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { formatTime, pickerValue, shiftDate, todayDate, dateOf } from '../../shared/time.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { downloadVibrationReport, fetchVibrationReport, vibrationKeys, type VibrationParams } from './vibrationApi.ts';

const VERDICT_COLOUR: Record<VibrationVerdict, string> = {
  pass: 'green',
  range: 'gold',
  exceed: 'red',
  unknown: 'default',
};
const VERDICT_HEX: Record<VibrationVerdict, string> = {
  pass: '#2e7d32',
  range: '#f9a825',
  exceed: '#c62828',
  unknown: '#757575',
};

/** Log-log chart of the events' PPV against their dominant frequency, beside the limit curve. */
function chartOf(events: VibrationEvent[], curveId: string, t: (k: string) => string): EChartOption {
  const curve = limitCurve(curveId)!;
  const lower = curvePoints(curve, 'lower', 1, 200);
  const upper = curvePoints(curve, 'upper', 1, 200);
  const verdicts: VibrationVerdict[] = ['pass', 'range', 'exceed'];
  return {
    animation: false,
    legend: { top: 0 },
    tooltip: { trigger: 'item' },
    grid: { left: 56, right: 24, top: 40, bottom: 48 },
    xAxis: { type: 'log', min: 1, max: 200, name: `${t('chart.frequency')} (Hz)`, nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'log', name: `${t('chart.ppv')} (mm/s)`, min: 0.01 },
    series: [
      { type: 'line', name: t('chart.lower'), data: lower, showSymbol: false, lineStyle: { color: '#1565c0' } },
      ...(upper.some((p, i) => p[1] !== lower[i]?.[1])
        ? [
            {
              type: 'line' as const,
              name: t('chart.upper'),
              data: upper,
              showSymbol: false,
              lineStyle: { color: '#1565c0', type: 'dashed' as const },
            },
          ]
        : []),
      ...verdicts.map((v) => ({
        type: 'scatter' as const,
        name: t(`verdicts.${v}`),
        itemStyle: { color: VERDICT_HEX[v] },
        data: events
          .filter((e) => e.verdict === v && e.frequency !== null && e.frequency > 0 && e.ppv > 0)
          .map((e) => [e.frequency!, e.ppv]),
      })),
    ],
  };
}

/**
 * /monitor/VibrationReport: the vibration events of a site's vibration devices in a period, PPV per axis, vector
 * sum, dominant frequency and the verdict against a chosen limit curve; downloads as xlsx and PDF. Test hooks:
 * vib-site, vib-device, vib-range, vib-curve, vib-run, vib-table, vib-xlsx, vib-pdf.
 */
export default function VibrationReportPage() {
  const { t } = useTranslation('vibration');
  const [msg, msgHolder] = message.useMessage();
  const lang = currentLanguage();
  const { zone, label: zoneName } = useTimeZone();
  const { sites } = useMonitorSites();
  const [platformId, setPlatformId] = useState<number | undefined>(undefined);
  const [site] = useChosenSite(sites);
  const chosen = platformId ?? site;
  const devices = useSiteDevices(chosen);
  const [deviceId, setDeviceId] = useState<number | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const today = todayDate(zone);
    return [pickerValue(shiftDate(today, -6)), pickerValue(today)];
  });
  const [curve, setCurve] = useState<string>(DEFAULT_LIMIT_CURVE);
  const [trigger, setTrigger] = useState<number>(VIBRATION_LIMITS.defaultTriggerMmps);
  const [asked, setAsked] = useState<VibrationParams | null>(null);
  const [busy, setBusy] = useState<'xlsx' | 'pdf' | null>(null);
  const params: VibrationParams | null =
    chosen === undefined
      ? null
      : {
          platformId: chosen,
          deviceId,
          startTime: dateOf(range[0]),
          endTime: dateOf(range[1]),
          timeZone: zone,
          curve,
          trigger,
        };
  const q = useQuery({
    queryKey: vibrationKeys.report(asked ?? ({} as VibrationParams)),
    queryFn: () => fetchVibrationReport(asked!),
    enabled: asked !== null,
    retry: retryUnlessCancelled,
  });
  const r = q.data;
  const option = useMemo(() => (r ? chartOf(r.events, r.curve, t) : null), [r, t]);
  const counts = useMemo(() => {
    const c = { pass: 0, range: 0, exceed: 0, unknown: 0 };
    for (const e of r?.events ?? []) c[e.verdict]++;
    return c;
  }, [r]);
  const download = async (format: 'xlsx' | 'pdf') => {
    if (!asked) return;
    setBusy(format);
    try {
      await downloadVibrationReport(asked, format);
    } catch (e) {
      void msg.error((e as Error).message || t('downloadFailed'), 1);
    } finally {
      setBusy(null);
    }
  };
  const vibDevices = (devices.data ?? []).filter((d) => d.moduleId === VIBRATION_MODULE_ID);
  const axisName = (a: string) => t(`axes.${a}`, { defaultValue: a });

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<ThunderboltOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center">
          <Select<number>
            data-testid="vib-site"
            style={{ width: 200 }}
            placeholder={t('form.site')}
            value={chosen}
            options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
            showSearch
            optionFilterProp="label"
            onChange={(v) => {
              setPlatformId(v);
              setDeviceId(undefined);
            }}
          />
          <Select<number>
            data-testid="vib-device"
            style={{ width: 200 }}
            allowClear
            placeholder={t('form.allDevices')}
            value={deviceId}
            loading={devices.isFetching}
            options={vibDevices.map((d) => ({ value: d.deviceId, label: d.deviceName }))}
            onChange={(v) => setDeviceId(v ?? undefined)}
          />
          <DatePicker.RangePicker
            data-testid="vib-range"
            allowClear={false}
            value={range}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Select<string>
            data-testid="vib-curve"
            style={{ width: 320 }}
            value={curve}
            popupMatchSelectWidth={false}
            options={LIMIT_CURVES.map((c) => ({ value: c.id, label: c.label[lang] }))}
            onChange={setCurve}
          />
          <Space.Compact>
            <InputNumber<number>
              data-testid="vib-trigger"
              style={{ width: 150 }}
              min={0.001}
              max={1000}
              step={0.1}
              value={trigger}
              prefix={t('form.trigger')}
              suffix="mm/s"
              onChange={(v) => v !== null && setTrigger(v)}
            />
          </Space.Compact>
          <Button
            type="primary"
            data-testid="vib-run"
            icon={<PlayCircleOutlined />}
            disabled={!params}
            loading={q.isFetching}
            onClick={() => params && setAsked({ ...params })}
          >
            {t('form.run')}
          </Button>
          <Button
            data-testid="vib-xlsx"
            icon={<DownloadOutlined />}
            disabled={!r}
            loading={busy === 'xlsx'}
            onClick={() => void download('xlsx')}
          >
            xlsx
          </Button>
          <Button
            data-testid="vib-pdf"
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
      {!r && !q.isFetching && !q.error && <Alert type="info" showIcon message={t('hint')} />}
      {r && (
        <>
          <Card variant="borderless" title={t('summary')}>
            <Flex vertical gap={8}>
              <Typography.Text data-testid="vib-summary">
                {r.events.length ? t('counts', { n: r.events.length, ...counts }) : t('none')}
              </Typography.Text>
              <Typography.Text type="secondary">{limitCurve(r.curve)?.source}</Typography.Text>
              {r.truncated && <Alert type="warning" showIcon message={t('truncated')} />}
              {option && <EChart option={option} style={{ height: 360 }} />}
            </Flex>
          </Card>
          <Card variant="borderless" title={t('events')}>
            <Table<VibrationEvent>
              data-testid="vib-table"
              size="small"
              rowKey={(e) => `${e.deviceId}-${e.from}`}
              dataSource={r.events}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              scroll={{ x: 1100 }}
              expandable={{
                expandedRowRender: (e) => (
                  <Table
                    size="small"
                    pagination={false}
                    rowKey="axis"
                    dataSource={e.axes}
                    columns={[
                      { title: t('cols.axis'), dataIndex: 'axis', render: axisName },
                      { title: `${t('cols.ppv')} (mm/s)`, dataIndex: 'ppv', align: 'right' },
                      {
                        title: withZone(t('cols.peakAt'), zoneName),
                        dataIndex: 'at',
                        render: (v: string) => formatTime(v),
                      },
                      {
                        title: `${t('cols.frequency')} (Hz)`,
                        dataIndex: 'frequency',
                        align: 'right',
                        render: (v) => v ?? '—',
                      },
                      {
                        title: t('cols.method'),
                        dataIndex: 'frequencyMethod',
                        render: (v: string | null) => (v ? t(`methods.${v}`) : '—'),
                      },
                    ]}
                  />
                ),
              }}
              columns={[
                { title: t('cols.device'), dataIndex: 'deviceName', width: 160 },
                {
                  title: withZone(t('cols.start'), zoneName),
                  dataIndex: 'from',
                  width: 170,
                  render: (v: string) => formatTime(v),
                },
                {
                  title: withZone(t('cols.end'), zoneName),
                  dataIndex: 'to',
                  width: 170,
                  render: (v: string) => formatTime(v),
                },
                { title: `${t('cols.ppv')} (mm/s)`, dataIndex: 'ppv', align: 'right', width: 110 },
                { title: `${t('cols.vectorSum')} (mm/s)`, dataIndex: 'vectorSum', align: 'right', width: 120 },
                {
                  title: `${t('cols.frequency')} (Hz)`,
                  dataIndex: 'frequency',
                  align: 'right',
                  width: 110,
                  render: (v) => v ?? '—',
                },
                {
                  title: `${t('cols.allowable')} (mm/s)`,
                  dataIndex: 'allowable',
                  align: 'right',
                  width: 120,
                  render: (a: VibrationEvent['allowable']) =>
                    a ? (a.lower === a.upper ? a.lower : `${a.lower}–${a.upper}`) : '—',
                },
                {
                  title: t('cols.verdict'),
                  dataIndex: 'verdict',
                  width: 150,
                  render: (v: VibrationVerdict) => <Tag color={VERDICT_COLOUR[v]}>{t(`verdicts.${v}`)}</Tag>,
                },
              ]}
            />
          </Card>
        </>
      )}
    </Flex>
  );
}
