// The vibration report as a ReportDocument (contract/src/reportDocument): texts in the report's language, numbers
// already rounded, times ISO UTC shown in the named zone. No file format here: the platform's renderers draw it.
import {
  VIBRATION_VERDICT_LABELS,
  curvePoints,
  formatLocal,
  type Language,
  type LimitCurve,
  type ReportBlock,
  type ReportDocument,
  type ReportSeries,
  type VibrationEvent,
} from '@geosentry/contract';
import type { VibrationDevice } from './vibration.repository.ts';

type W = Record<Language, string>;
const WORDS = {
  title: { en: 'Vibration monitoring report', zh: '振动监测报告', ko: '진동 모니터링 보고서' },
  site: { en: 'Site', zh: '平台', ko: '현장' },
  period: { en: 'Period', zh: '时间范围', ko: '기간' },
  devices: { en: 'Devices', zh: '设备', ko: '장치' },
  curve: { en: 'Limit curve', zh: '限值曲线', ko: '허용 곡선' },
  source: { en: 'Source', zh: '依据', ko: '근거' },
  trigger: { en: 'Trigger level', zh: '触发阈值', ko: '트리거 수준' },
  gap: { en: 'Event gap', zh: '事件间隔', ko: '이벤트 간격' },
  summary: { en: 'Summary', zh: '概况', ko: '요약' },
  events: { en: 'Events', zh: '振动事件', ko: '진동 이벤트' },
  axes: { en: 'Axes', zh: '分量', ko: '축별' },
  chart: { en: 'PPV against dominant frequency', zh: '峰值振速-主频', ko: '최대 입자 속도-주파수' },
  frequency: { en: 'Dominant frequency', zh: '主频', ko: '주파수' },
  ppv: { en: 'PPV', zh: '峰值振速', ko: '최대 입자 속도' },
  vectorSum: { en: 'Vector sum', zh: '合成振速', ko: '벡터 합' },
  device: { en: 'Device', zh: '设备', ko: '장치' },
  start: { en: 'Start', zh: '开始时间', ko: '시작' },
  end: { en: 'End', zh: '结束时间', ko: '종료' },
  samples: { en: 'Readings', zh: '数据条数', ko: '데이터 수' },
  axis: { en: 'Axis', zh: '分量', ko: '축' },
  peakAt: { en: 'Time of peak', zh: '峰值时间', ko: '최대 시각' },
  method: { en: 'Frequency from', zh: '主频来源', ko: '주파수 산출' },
  fft: { en: 'FFT of the waveform', zh: '波形 FFT', ko: '파형 FFT' },
  deviceFreq: { en: 'logger', zh: '仪器', ko: '계측기' },
  allowable: { en: 'Allowable', zh: '允许值', ko: '허용치' },
  verdict: { en: 'Verdict', zh: '结论', ko: '판정' },
  lower: { en: 'lower value', zh: '下限', ko: '하한' },
  upper: { en: 'upper value', zh: '上限', ko: '상한' },
  none: {
    en: 'No event reached the trigger level in the period.',
    zh: '该时间范围内没有振动达到触发阈值。',
    ko: '기간 중 트리거 수준에 도달한 이벤트가 없습니다.',
  },
  counts: {
    en: "{n} events: {pass} within the limit, {range} within the standard's range, {exceed} exceeding it, {unknown} without a frequency. Largest PPV {max} mm/s.",
    zh: '共 {n} 个事件：满足限值 {pass} 个，处于标准范围内 {range} 个，超过限值 {exceed} 个，无主频 {unknown} 个。最大峰值振速 {max} mm/s。',
    ko: '이벤트 {n}건: 허용치 이내 {pass}건, 기준 범위 내 {range}건, 초과 {exceed}건, 주파수 없음 {unknown}건. 최대 PPV {max} mm/s.',
  },
  truncated: {
    en: 'Only the first events are listed: narrow the period or choose a device.',
    zh: '仅列出前面的事件：请缩小时间范围或选择设备。',
    ko: '앞부분 이벤트만 표시됩니다: 기간을 줄이거나 장치를 선택하세요.',
  },
  basis: {
    en: 'PPV: the largest absolute velocity of an axis; vector sum: the largest resultant √(x²+y²+z²) at one time; the axis with the largest PPV is judged at its dominant frequency.',
    zh: '峰值振速：各分量速度绝对值的最大值；合成振速：同一时刻 √(x²+y²+z²) 的最大值；以峰值振速最大的分量及其主频判定。',
    ko: 'PPV: 각 축 속도 절댓값의 최댓값; 벡터 합: 같은 시각 √(x²+y²+z²)의 최댓값; PPV가 가장 큰 축을 그 주파수로 판정합니다.',
  },
} satisfies Record<string, W>;

const AXIS: Record<string, W> = {
  velocity: { en: 'Velocity', zh: '振速', ko: '속도' },
  velocityX: { en: 'X', zh: 'X', ko: 'X' },
  velocityY: { en: 'Y', zh: 'Y', ko: 'Y' },
  velocityZ: { en: 'Z', zh: 'Z', ko: 'Z' },
};

const fill = (s: string, p: Record<string, string | number>) => s.replace(/\{(\w+)\}/g, (_, k: string) => String(p[k]));

export interface VibrationDocInput {
  lang: Language;
  siteName: string;
  platformId: number;
  timeZone: string;
  period: { from: number; to: number };
  devices: VibrationDevice[];
  curve: LimitCurve;
  trigger: number;
  gapSeconds: number;
  events: VibrationEvent[];
  truncated: boolean;
}

const VERDICT_COLOUR = { pass: '#2e7d32', range: '#f9a825', exceed: '#c62828', unknown: '#757575' } as const;

export function vibrationDocument(x: VibrationDocInput): ReportDocument {
  const L = x.lang;
  const w = (k: keyof typeof WORDS) => WORDS[k][L];
  const local = (t: number) => formatLocal(t, x.timeZone).slice(0, 16);
  const counts = { pass: 0, range: 0, exceed: 0, unknown: 0 };
  for (const e of x.events) counts[e.verdict]++;
  const max = x.events.reduce((m, e) => Math.max(m, e.ppv), 0);
  const summary: ReportBlock[] = [
    {
      kind: 'paragraph',
      text: x.events.length ? fill(w('counts'), { n: x.events.length, ...counts, max }) : w('none'),
    },
  ];
  if (x.truncated) summary.push({ kind: 'paragraph', text: w('truncated') });
  // Log-log chart: the curve (lower and, when it differs, upper values) and the events by verdict.
  const lower = curvePoints(x.curve, 'lower', 1, 200);
  const upper = curvePoints(x.curve, 'upper', 1, 200);
  const series: ReportSeries[] = [
    { name: `${x.curve.label[L]} (${w('lower')})`, points: lower, style: 'line', colour: '#1565c0' },
  ];
  if (upper.some((p, i) => p[1] !== lower[i]?.[1]))
    series.push({
      name: `${x.curve.label[L]} (${w('upper')})`,
      points: upper,
      style: 'line',
      colour: '#1565c0',
      dashed: true,
    });
  for (const v of ['pass', 'range', 'exceed'] as const) {
    const pts = x.events
      .filter((e) => e.verdict === v && e.frequency !== null && e.frequency > 0 && e.ppv > 0)
      .map((e): [number, number] => [e.frequency!, e.ppv]);
    if (pts.length)
      series.push({ name: VIBRATION_VERDICT_LABELS[v][L], points: pts, style: 'scatter', colour: VERDICT_COLOUR[v] });
  }
  const ys = [...series.flatMap((s) => s.points.map((p) => p[1] ?? 0)), 0.1].filter((v) => v > 0);
  summary.push({
    kind: 'chart',
    chart: {
      title: w('chart'),
      x: { label: w('frequency'), unit: 'Hz', scale: 'log', min: 1, max: 200 },
      y: {
        label: w('ppv'),
        unit: 'mm/s',
        scale: 'log',
        min: 10 ** Math.floor(Math.log10(Math.min(...ys))),
        max: 10 ** Math.ceil(Math.log10(Math.max(...ys))),
      },
      series,
    },
  });
  summary.push({ kind: 'paragraph', text: w('basis') });
  const verdict = (e: VibrationEvent) => VIBRATION_VERDICT_LABELS[e.verdict][L];
  const eventsTable: ReportBlock = {
    kind: 'table',
    columns: [
      { label: w('device'), width: 18 },
      { label: w('start'), kind: 'time', width: 17 },
      { label: w('end'), kind: 'time', width: 17 },
      { label: w('samples'), kind: 'number', decimals: 0, width: 8 },
      { label: w('ppv'), unit: 'mm/s', kind: 'number', decimals: 3, width: 10 },
      { label: w('vectorSum'), unit: 'mm/s', kind: 'number', decimals: 3, width: 10 },
      { label: w('frequency'), unit: 'Hz', kind: 'number', decimals: 1, width: 10 },
      { label: w('allowable'), unit: 'mm/s', width: 12 },
      { label: w('verdict'), width: 14 },
    ],
    rows: x.events.map((e) => [
      e.deviceName,
      e.from,
      e.to,
      e.samples,
      e.ppv,
      e.vectorSum,
      e.frequency,
      e.allowable
        ? e.allowable.lower === e.allowable.upper
          ? String(e.allowable.lower)
          : `${e.allowable.lower}–${e.allowable.upper}`
        : '',
      verdict(e),
    ]),
    emphasis: x.events.flatMap((e, i) => (e.verdict === 'exceed' ? [i] : [])),
  };
  const axesTable: ReportBlock = {
    kind: 'table',
    columns: [
      { label: w('device'), width: 18 },
      { label: w('start'), kind: 'time', width: 17 },
      { label: w('axis'), width: 8 },
      { label: w('ppv'), unit: 'mm/s', kind: 'number', decimals: 3, width: 10 },
      { label: w('peakAt'), kind: 'time', width: 17 },
      { label: w('frequency'), unit: 'Hz', kind: 'number', decimals: 1, width: 10 },
      { label: w('method'), width: 14 },
    ],
    rows: x.events.flatMap((e) =>
      e.axes.map((a) => [
        e.deviceName,
        e.from,
        AXIS[a.axis]?.[L] ?? a.axis,
        a.ppv,
        a.at,
        a.frequency,
        a.frequencyMethod === 'fft' ? w('fft') : a.frequencyMethod === 'device' ? w('deviceFreq') : '',
      ]),
    ),
  };
  const sections: ReportDocument['sections'] = [{ title: w('summary'), blocks: summary }];
  if (x.events.length) {
    sections.push({ title: w('events'), blocks: [eventsTable] });
    sections.push({ title: w('axes'), blocks: [axesTable] });
  }
  const day = (t: number) => formatLocal(t, x.timeZone).slice(0, 10);
  return {
    title: w('title'),
    subtitle: x.siteName,
    language: L,
    timeZone: x.timeZone,
    generatedAt: new Date().toISOString(),
    // The zone is named in the header card (the renderers' time zone row), beside the period.
    meta: [
      { label: w('site'), value: x.siteName },
      { label: w('period'), value: `${local(x.period.from)} – ${local(x.period.to)}` },
      { label: w('devices'), value: x.devices.map((d) => d.name).join(', ') || '—' },
      { label: w('curve'), value: x.curve.label[L] },
      { label: w('source'), value: x.curve.source },
      { label: w('trigger'), value: `${x.trigger} mm/s` },
      { label: w('gap'), value: `${x.gapSeconds} s` },
    ],
    sections,
    fileName: `vibration-${x.platformId}-${day(x.period.from)}-${day(x.period.to - 1)}`,
  };
}
