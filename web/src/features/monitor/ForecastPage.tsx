import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Flex, InputNumber, Segmented, Tag } from 'antd';
import { ExperimentOutlined, ThunderboltOutlined } from '@ant-design/icons';
import {
  FORECAST_LIMITS,
  type AccuracyGrade,
  type InverseVelocityAnswer,
  type PredictionAnswer,
  type PredictionType,
} from '@geosentry/contract';
import { EChart, type EChartOption } from '../../shared/charts/EChart.tsx';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { DevicePicker, QuantityPicker, SitePicker } from './shared/Pickers.tsx';
import { AggregationPicker, TimeRangePicker } from './shared/TimePickers.tsx';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { useChosenDevice } from './shared/useDeviceChoice.ts';
import { useQuantityText } from './shared/format.ts';
import { decimalsOf, formatValue } from '../../shared/format.ts';
import { fmtTime, isRangeComplete, type Aggregation, type TimeRange } from './shared/timeRange.ts';
import { fetchHistory, inverseVelocity, liveKeys, predict, rangeParams } from './monitorApi.ts';
import { zoneShift } from './shared/seriesChart.ts';
import { formatInZone } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import './monitor.css';

const GRADE_COLOR: Record<AccuracyGrade, string> = {
  good: 'green',
  qualified: 'blue',
  barely: 'gold',
  unqualified: 'red',
};
/** Monitor types whose main quantity is a displacement (the inverse-velocity method applies to them). */
const DISPLACEMENT_MODULES = new Set([1, 5, 13, 24, 26, 30, 35, 37]);

function medianStep(ts: readonly number[]): number {
  const d = ts
    .slice(1)
    .map((t, i) => t - ts[i]!)
    .filter((x) => x > 0)
    .sort((a, b) => a - b);
  return d.length ? d[Math.floor(d.length / 2)]! : 3_600_000;
}

/** A time axis, named after the zone when it is not the browser's (as in seriesChart.ts). */
function timeAxis(zoneName: string | null): EChartOption['xAxis'] {
  return {
    type: 'time',
    ...(zoneName
      ? { name: zoneName, nameLocation: 'middle' as const, nameGap: 28, nameTextStyle: { color: '#8c8c8c' } }
      : {}),
  };
}

/** Monitor > Data forecast: GM(1,1) or Holt prediction of a device quantity, and the inverse-velocity estimate. */
export default function ForecastPage() {
  const { t } = useTranslation('monitor');
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const siteDevices = useSiteDevices(platformId);
  const [device, setDeviceId] = useChosenDevice(siteDevices.data);
  const text = useQuantityText();
  const [quantityChoice, setQuantity] = useState<string | undefined>();
  const [range, setRange] = useState<TimeRange>({ kind: '7d' });
  const { zone, label: zoneName } = useTimeZone();
  const [aggregation, setAggregation] = useState<Aggregation>('hour');
  const [type, setType] = useState<PredictionType>(1);
  const [sampleNum, setSampleNum] = useState<number | null>(20);
  const [predictNum, setPredictNum] = useState<number | null>(5);

  const quantities = device ? text.catalogue.quantities(device.moduleId) : [];
  const quantity = quantities.some((q) => q.key === quantityChoice) ? quantityChoice : quantities[0]?.key;
  const complete = isRangeComplete(range);
  const history = useQuery({
    queryKey: liveKeys.history({ forecast: device?.deviceId, quantity, range: rangeParams(range), aggregation }),
    queryFn: () => fetchHistory({ deviceId: device!.deviceId, quantity, range, aggregation }),
    enabled: device !== undefined && quantity !== undefined && complete,
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const series = history.data?.devices[0]?.series.find((s) => s.quantity === quantity);
  const ts = useMemo(() => (series?.points ?? []).map((p) => Date.parse(p.ts)), [series]);
  const values = useMemo(() => (series?.points ?? []).map((p) => p.value), [series]);
  const unit = series?.unit ?? '';
  /** Forecast values are shown with the decimals the series is read with (at least 2), without float noise. */
  const digits = useMemo(() => Math.max(2, decimalsOf(values)), [values]);
  /** Inverse-velocity window (intervals): the answer's, else what the next estimate will use. */
  const ivWindow = 3;

  const sampleOk =
    sampleNum !== null &&
    sampleNum >= FORECAST_LIMITS.minSample &&
    sampleNum <= FORECAST_LIMITS.maxSample &&
    sampleNum <= values.length;
  const predictOk = predictNum !== null && predictNum >= 1 && predictNum <= FORECAST_LIMITS.maxPredict;

  const run = useMutation<PredictionAnswer>({ mutationFn: () => predict(type, values, sampleNum!, predictNum!) });
  const inverse = useMutation<InverseVelocityAnswer>({ mutationFn: () => inverseVelocity(ts, values, ivWindow) });
  // A result belongs to the series it was computed from: a new series clears it.
  const seriesKey = `${device?.deviceId}|${quantity}|${JSON.stringify(rangeParams(range))}|${aggregation}`;
  const { reset: resetRun } = run;
  const { reset: resetInverse } = inverse;
  useEffect(() => {
    resetRun();
    resetInverse();
  }, [seriesKey, resetRun, resetInverse]);
  const isDisplacement = device !== undefined && DISPLACEMENT_MODULES.has(device.moduleId) && unit === 'mm';

  const option: EChartOption = useMemo(() => {
    // Drawn in UTC with instants moved by the zone's offset: the axis reads the user's wall clock (seriesChart.ts).
    const at = zoneShift(zone);
    const hist = ts.map((x, i) => [at(x), values[i]!]);
    const out: NonNullable<EChartOption['series']> = [
      {
        name: t('forecast.history'),
        type: 'line',
        data: hist,
        showSymbol: hist.length < 60,
        symbolSize: 4,
        color: '#1677ff',
      },
    ];
    const a = run.data;
    if (a) {
      const sampleTs = ts.slice(-a.sample.length);
      out.push({
        name: t('forecast.fitted'),
        type: 'line',
        data: a.fitted.map((v, i) => [at(sampleTs[i]!), v]),
        showSymbol: false,
        lineStyle: { type: 'dashed' },
        color: '#52c41a',
      });
      const step = medianStep(sampleTs);
      const last = sampleTs.at(-1) ?? Date.now();
      out.push({
        name: t('forecast.predicted'),
        type: 'line',
        data: [
          [at(last), a.fitted.at(-1) ?? a.sample.at(-1)!],
          ...a.predicted.map((v, i) => [at(last + step * (i + 1)), v]),
        ],
        symbolSize: 6,
        lineStyle: { type: 'dashed', width: 2 },
        color: '#fa541c',
        markArea: {
          silent: true,
          itemStyle: { color: 'rgba(250,84,28,0.06)' },
          data: [[{ xAxis: at(last) }, { xAxis: at(last + step * a.predicted.length) }]],
        },
      });
    }
    return {
      animation: false,
      useUTC: true,
      grid: { left: 56, right: 24, top: 40, bottom: zoneName ? 76 : 64 },
      legend: { top: 4 },
      tooltip: { trigger: 'axis', confine: true, valueFormatter: (v: unknown) => formatValue(Number(v), digits) },
      xAxis: timeAxis(zoneName),
      yAxis: { type: 'value', scale: true, name: unit },
      dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 10 }],
      series: out,
    };
  }, [ts, values, run.data, unit, t, digits, zone, zoneName]);

  const ivOption: EChartOption | null = useMemo(() => {
    const a = inverse.data;
    if (!a) return null;
    const at = zoneShift(zone);
    const pts = a.velocities.filter((p) => p.inv !== null).map((p) => [at(p.t), p.inv!]);
    const out: NonNullable<EChartOption['series']> = [
      { name: t('forecast.iv.points'), type: 'scatter', data: pts, symbolSize: 6, color: '#1677ff' },
    ];
    if (a.line.length) {
      out.push({
        name: 'band-low',
        type: 'line',
        data: a.line.map((p) => [at(p.t), p.low]),
        stack: 'band',
        symbol: 'none',
        lineStyle: { opacity: 0 },
        silent: true,
        tooltip: { show: false },
      });
      out.push({
        name: t('forecast.iv.band'),
        type: 'line',
        data: a.line.map((p) => [at(p.t), p.high - p.low]),
        stack: 'band',
        symbol: 'none',
        lineStyle: { opacity: 0 },
        areaStyle: { color: '#fa8c16', opacity: 0.15 },
        color: '#fa8c16',
        silent: true,
        tooltip: { show: false },
      });
      out.push({
        name: t('forecast.iv.line'),
        type: 'line',
        data: a.line.map((p) => [at(p.t), p.inv]),
        symbol: 'none',
        color: '#fa541c',
        ...(a.failureTime
          ? {
              markLine: {
                symbol: 'none',
                label: { formatter: t('forecast.iv.failure'), position: 'insideEndTop' },
                lineStyle: { color: '#cf1322', type: 'dashed' },
                data: [{ xAxis: at(a.failureTime) }],
              },
            }
          : {}),
      });
    }
    return {
      animation: false,
      useUTC: true,
      grid: { left: 64, right: 24, top: 40, bottom: zoneName ? 52 : 40 },
      legend: { top: 4, data: [t('forecast.iv.points'), t('forecast.iv.line'), t('forecast.iv.band')] },
      tooltip: {
        trigger: 'item',
        confine: true,
        // A point is [time, 1/v]: its time as a date, 1/v without float noise.
        formatter: (p: unknown) => {
          const v = (p as { value?: unknown }).value;
          // Shifted instants read as UTC are the zone's wall clock.
          return Array.isArray(v)
            ? `${formatInZone(Number(v[0]), 'UTC')}<br/>1/v = ${formatValue(Number(v[1]), 4)}`
            : '';
        },
      },
      xAxis: timeAxis(zoneName),
      yAxis: { type: 'value', name: t('forecast.iv.axis'), min: 0 },
      series: out,
    };
  }, [inverse.data, t, zone, zoneName]);

  const a = run.data;
  return (
    <Flex vertical gap={12} data-testid="monitor-forecast">
      <Card className="gs-monitor-toolbar" variant="borderless">
        <Flex vertical gap={10}>
          <Flex gap={12} wrap align="center">
            <h5 className="gs-section-title">{t('forecast.title')}</h5>
            <SitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={sitesLoading} />
            <DevicePicker devices={siteDevices.data ?? []} value={device?.deviceId} onChange={setDeviceId} />
            <QuantityPicker moduleId={device?.moduleId} value={quantity} onChange={setQuantity} />
            <TimeRangePicker value={range} onChange={setRange} />
          </Flex>
          <Flex gap={12} wrap align="center">
            <AggregationPicker value={aggregation} onChange={setAggregation} />
            <Segmented<PredictionType>
              data-testid="forecast-type"
              value={type}
              onChange={setType}
              options={[
                { value: 1, label: t('forecast.gm') },
                { value: 0, label: t('forecast.holt') },
              ]}
            />
            <InputNumber
              data-testid="forecast-sample"
              prefix={t('forecast.sampleNum')}
              min={FORECAST_LIMITS.minSample}
              max={FORECAST_LIMITS.maxSample}
              value={sampleNum}
              onChange={setSampleNum}
              status={sampleOk || values.length === 0 ? undefined : 'error'}
              style={{ width: 140 }}
            />
            <InputNumber
              data-testid="forecast-predict"
              prefix={t('forecast.predictNum')}
              min={1}
              max={FORECAST_LIMITS.maxPredict}
              value={predictNum}
              onChange={setPredictNum}
              status={predictOk ? undefined : 'error'}
              style={{ width: 140 }}
            />
            <Button
              type="primary"
              icon={<ThunderboltOutlined />}
              disabled={!sampleOk || !predictOk}
              loading={run.isPending}
              onClick={() => run.mutate()}
              data-testid="forecast-run"
            >
              {t('forecast.run')}
            </Button>
          </Flex>
        </Flex>
      </Card>
      {!complete ? <Alert type="warning" showIcon title={t('error.rangeIncomplete')} /> : null}
      {values.length > 0 && !sampleOk ? (
        <Alert
          type="warning"
          showIcon
          title={t('forecast.sampleRule', {
            min: FORECAST_LIMITS.minSample,
            max: Math.min(FORECAST_LIMITS.maxSample, values.length),
          })}
        />
      ) : null}
      <Card
        variant="borderless"
        styles={{ body: { padding: 12 } }}
        title={device ? `${device.deviceName} · ${series?.label ?? quantity ?? ''}` : t('pick.device')}
        extra={
          a ? (
            <Flex gap={6} wrap data-testid="forecast-checks">
              <Tag>C = {formatValue(a.stats.c, 4)}</Tag>
              <Tag>P = {formatValue(a.stats.p, 4)}</Tag>
              <Tag color={GRADE_COLOR[a.stats.grade]}>{t(`forecast.grade.${a.stats.grade}`)}</Tag>
              <Tag>RMSE {formatValue(a.stats.rmse, digits + 2)}</Tag>
              {a.stats.mape !== null ? <Tag>MAPE {formatValue(a.stats.mape, 2)}%</Tag> : null}
            </Flex>
          ) : null
        }
      >
        {!device && !siteDevices.isLoading ? (
          <Empty description={t('empty.noDevices')} />
        ) : !history.isLoading && values.length === 0 ? (
          <Empty description={t('empty.noData')} />
        ) : (
          <EChart option={option} notMerge height={380} loading={history.isFetching} data-testid="forecast-chart" />
        )}
        {a ? (
          <p className="gs-muted" style={{ margin: '8px 0 0' }} data-testid="forecast-convention">
            {t(`forecast.convention.${a.stats.convention}`, { n: a.stats.residualCount })}
          </p>
        ) : null}
        {a?.notes.length ? <Alert type="info" showIcon title={a.notes.join(' ')} style={{ marginTop: 8 }} /> : null}
        {a ? (
          <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginTop: 8 }}>
            {a.predicted.map((v, i) => (
              <Descriptions.Item key={i} label={t('forecast.step', { n: i + 1 })}>
                {formatValue(v, digits)} {unit}
              </Descriptions.Item>
            ))}
          </Descriptions>
        ) : null}
      </Card>
      {isDisplacement ? (
        <Card
          variant="borderless"
          styles={{ body: { padding: 12 } }}
          data-testid="forecast-iv"
          title={
            <Flex gap={8} align="center" wrap>
              <ExperimentOutlined />
              {t('forecast.iv.title')}
              <Tag color="purple">{t('forecast.iv.decisionSupport')}</Tag>
            </Flex>
          }
          extra={
            <Button
              onClick={() => inverse.mutate()}
              loading={inverse.isPending}
              disabled={values.length < FORECAST_LIMITS.minInversePoints}
              data-testid="forecast-iv-run"
            >
              {t('forecast.iv.run')}
            </Button>
          }
        >
          <Alert type="warning" showIcon title={t('forecast.iv.disclaimer')} style={{ marginBottom: 8 }} />
          <p className="gs-muted" style={{ marginBottom: 8 }} data-testid="forecast-iv-convention">
            {t('forecast.iv.convention', { window: inverse.data?.window ?? ivWindow })} {t('forecast.iv.bandMeaning')}
          </p>
          {inverse.data && !inverse.data.applicable ? (
            <Alert
              type="info"
              showIcon
              title={inverse.data.reasonText ?? t('forecast.iv.notApplicable')}
              style={{ marginBottom: 8 }}
            />
          ) : null}
          {inverse.data?.failureTime ? (
            <Descriptions size="small" column={{ xs: 1, md: 3 }}>
              <Descriptions.Item label={t('forecast.iv.failure')}>
                {fmtTime(inverse.data.failureTime)}
              </Descriptions.Item>
              <Descriptions.Item label={t('forecast.iv.earliest')}>
                {fmtTime(inverse.data.failureTimeEarliest)}
              </Descriptions.Item>
              <Descriptions.Item label={t('forecast.iv.latest')}>
                {fmtTime(inverse.data.failureTimeLatest)}
              </Descriptions.Item>
              {inverse.data.fit ? (
                <Descriptions.Item label="R²">{formatValue(inverse.data.fit.r2, 4)}</Descriptions.Item>
              ) : null}
            </Descriptions>
          ) : null}
          {ivOption ? (
            <EChart option={ivOption} notMerge height={300} data-testid="forecast-iv-chart" />
          ) : (
            <Empty description={t('forecast.iv.hint')} />
          )}
        </Card>
      ) : null}
    </Flex>
  );
}
