// The module data report as a ReportDocument (getModuleData / getModuleDataReport: on screen, xlsx, PDF), in one
// of five layouts (spec §9 names templates A to E; their contents are ours, docs/reports.md "Module templates"):
//
//   A  Statistics per period: per device, each period's maximum, minimum, average (total for rainfall) and change.
//   B  Change report: per device, each period's closing value, its change against the previous period's closing
//      value (current change), against the device's first reading ever (cumulative change) and the rate per day.
//   C  Extremes and alerts: per quantity, each device's maximum and minimum with the time it was read, range,
//      average and readings; then the alerts first raised in the period, with their level and handling status.
//   D  Table and chart per quantity: a chart of every device's period average (total for rainfall), then the
//      same figures as a table, periods down, devices across.
//   E  Dam safety observation form: per quantity, one line per device with its previous value (the last reading
//      before the period), current value (the last in it), change, cumulative change, extremes, state and a
//      remarks column; the form ends with the signature block (observer, calculated by, checked by, lead).
//
// Changes are decimal differences rounded to 2 places (round2), as an engineer subtracts by hand.
import {
  REPORT_ALERT_LEVELS,
  REPORT_ALERT_STATUSES,
  REPORT_DEVICE_STATES,
  REPORT_STAT_LABELS,
  formatLocal,
  nextBucket,
  reportWord,
  round2,
  type Language,
  type ModuleReport,
  type ReportBlock,
  type ReportCellValue,
  type ReportColumn,
  type ReportDocument,
  type ReportTemplate,
} from '@geosentry/contract';
import type { PerQuantity, PeriodAlert, ValueAt } from './moduleData.reportData.ts';

type W = Record<Language, string>;
const WORDS = {
  title: { en: 'Module data report', zh: '模块数据报表', ko: '모듈 데이터 보고서' },
  template: { en: 'Template', zh: '模板', ko: '템플릿' },
  statistics: { en: 'Statistics period', zh: '统计周期', ko: '통계 주기' },
  none: { en: 'No readings in this period.', zh: '该时段内没有数据。', ko: '이 기간에 데이터가 없습니다.' },
  site: { en: 'Site', zh: '平台', ko: '현장' },
  type: { en: 'Monitor type', zh: '监测类型', ko: '모니터링 유형' },
  range: { en: 'Time range', zh: '时间范围', ko: '기간' },
  devices: { en: 'Devices', zh: '设备数', ko: '장치 수' },
  device: { en: 'Device', zh: '设备', ko: '장치' },
  number: { en: 'Number', zh: '编号', ko: '번호' },
  period: { en: 'Period', zh: '时间', ko: '기간' },
  whole: { en: 'Whole range', zh: '全时段', ko: '전체 기간' },
  closing: { en: 'Closing value', zh: '期末值', ko: '기말 값' },
  current: { en: 'Current change', zh: '本期变化量', ko: '금회 변화량' },
  cumulative: { en: 'Cumulative change', zh: '累计变化量', ko: '누적 변화량' },
  rate: { en: 'Rate per day', zh: '日变化速率', ko: '일 변화율' },
  initial: { en: 'Initial value', zh: '初始值', ko: '초기값' },
  initialAt: { en: 'Initial reading', zh: '初始值时间', ko: '초기값 시각' },
  max: { en: 'Maximum', zh: '最大值', ko: '최대값' },
  maxAt: { en: 'Time of maximum', zh: '最大值时间', ko: '최대값 시각' },
  min: { en: 'Minimum', zh: '最小值', ko: '최소값' },
  minAt: { en: 'Time of minimum', zh: '最小值时间', ko: '최소값 시각' },
  spread: { en: 'Range', zh: '变幅', ko: '변동폭' },
  avg: { en: 'Average', zh: '平均值', ko: '평균' },
  total: { en: 'Total', zh: '累计值', ko: '합계' },
  readings: { en: 'Readings', zh: '数据条数', ko: '데이터 수' },
  alertsCol: { en: 'Alerts', zh: '告警数', ko: '경보 수' },
  alerts: { en: 'Alerts raised in the period', zh: '本期告警', ko: '기간 중 경보' },
  noAlerts: { en: 'No alert was raised in the period.', zh: '本期无告警。', ko: '기간 중 경보가 없습니다.' },
  moreAlerts: {
    en: 'The first {n} of {total} alerts are listed.',
    zh: '共 {total} 条告警，列出前 {n} 条。',
    ko: '경보 {total}건 중 처음 {n}건을 보입니다.',
  },
  firstAt: { en: 'First at', zh: '首次时间', ko: '최초 시각' },
  quantity: { en: 'Quantity', zh: '监测量', ko: '측정량' },
  level: { en: 'Level', zh: '等级', ko: '등급' },
  value: { en: 'Value', zh: '告警值', ko: '경보 값' },
  threshold: { en: 'Threshold', zh: '阈值', ko: '임계값' },
  status: { en: 'Status', zh: '处理状态', ko: '처리 상태' },
  previous: { en: 'Previous value', zh: '上次测值', ko: '이전 값' },
  present: { en: 'Current value', zh: '本次测值', ko: '현재 값' },
  change: { en: 'Change', zh: '本次变化量', ko: '변화량' },
  state: { en: 'State', zh: '状态', ko: '상태' },
  remarks: { en: 'Remarks', zh: '备注', ko: '비고' },
  no: { en: 'No.', zh: '序号', ko: '번호' },
  observer: { en: 'Observer', zh: '观测', ko: '관측자' },
  calculator: { en: 'Calculated by', zh: '计算', ko: '계산자' },
  checker: { en: 'Checked by', zh: '校核', ko: '검토자' },
  lead: { en: 'Technical lead', zh: '技术负责人', ko: '기술 책임자' },
  signDate: { en: 'Date', zh: '日期', ko: '일자' },
  formTitle: { en: 'Dam safety observation form', zh: '大坝安全监测记录表', ko: '댐 안전 관측 기록표' },
  formNote: {
    en: 'Previous value: the last reading before the period; current value: the last reading in it; change = current − previous; cumulative change = current − initial value (the first reading of the device). Rounded to 2 decimals.',
    zh: '上次测值：本期开始前的最后一次测值；本次测值：本期内最后一次测值；本次变化量 = 本次 − 上次；累计变化量 = 本次 − 初始值（设备的第一次测值）。保留两位小数。',
    ko: '이전 값: 기간 시작 전 마지막 측정값; 현재 값: 기간 내 마지막 측정값; 변화량 = 현재 − 이전; 누적 변화량 = 현재 − 초기값(장치의 첫 측정값). 소수 둘째 자리 반올림.',
  },
  changeNote: {
    en: 'Current change = closing value − the previous period’s closing value (for the first period, the last reading before the report); cumulative change = closing value − initial value (the first reading of the device); rate per day = current change / days of the period.',
    zh: '本期变化量 = 本期期末值 − 上期期末值（首期为报表开始前最后一次测值）；累计变化量 = 期末值 − 初始值（设备的第一次测值）；日变化速率 = 本期变化量 / 本期天数。',
    ko: '금회 변화량 = 기말 값 − 이전 기간 기말 값(첫 기간은 보고서 시작 전 마지막 측정값); 누적 변화량 = 기말 값 − 초기값(장치의 첫 측정값); 일 변화율 = 금회 변화량 / 기간 일수.',
  },
  chartOf: { en: '{q} per {p}', zh: '{q}（按{p}）', ko: '{q} ({p}별)' },
} satisfies Record<string, W>;

const TEMPLATE_NAMES: Record<ReportTemplate, W> = {
  A: { en: 'A · Statistics per period', zh: 'A · 分时段统计', ko: 'A · 기간별 통계' },
  B: { en: 'B · Change report', zh: 'B · 变化量报表', ko: 'B · 변화량 보고서' },
  C: { en: 'C · Extremes and alerts', zh: 'C · 极值与告警', ko: 'C · 극값과 경보' },
  D: { en: 'D · Table and chart per quantity', zh: 'D · 分监测量图表', ko: 'D · 측정량별 표와 차트' },
  E: { en: 'E · Dam safety observation form', zh: 'E · 大坝安全监测记录表', ko: 'E · 댐 안전 관측 기록표' },
};

const PERIOD_WORDS: Record<ModuleReport['statisticsType'], W> = {
  original: { en: 'Each reading', zh: '原始数据', ko: '원본 측정값' },
  hour: { en: 'Hour', zh: '时', ko: '시간' },
  day: { en: 'Day', zh: '日', ko: '일' },
  week: { en: 'Week', zh: '周', ko: '주' },
  month: { en: 'Month', zh: '月', ko: '월' },
  year: { en: 'Year', zh: '年', ko: '년' },
};

/** What templates B to E read beyond the period statistics (moduleData.reportData.ts); absent parts are empty. */
export interface ModuleReportExtras {
  initial: PerQuantity<ValueAt>;
  before: PerQuantity<ValueAt>;
  max: PerQuantity<ValueAt>;
  min: PerQuantity<ValueAt>;
  alerts: { list: PeriodAlert[]; total: number; counts: Map<number, Record<number, number>> };
  /** Device id → state code (form E). */
  states: Map<number, string>;
}

export const NO_EXTRAS: ModuleReportExtras = {
  initial: new Map(),
  before: new Map(),
  max: new Map(),
  min: new Map(),
  alerts: { list: [], total: 0, counts: new Map() },
  states: new Map(),
};

/** Which extras a template reads (the service reads only these). */
export function extrasNeeded(t: ReportTemplate): { bases: boolean; extremes: boolean; alerts: boolean } {
  return { bases: t === 'B' || t === 'E', extremes: t === 'C' || t === 'E', alerts: t === 'C' };
}

/** Statistics computed from readings (rounded to 2 decimals); the others are readings or counts, shown as read. */
const COMPUTED = new Set(['avg', 'change', 'sum']);
const n2 = (v: number | null | undefined): number | null => (v === null || v === undefined ? null : round2(v));
const diff = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined ? null : round2(a, b);
const at = (m: PerQuantity<ValueAt>, d: number, q: string): ValueAt | undefined => m.get(d)?.get(q);
const iso = (t: number | undefined): string | null =>
  t === undefined || !Number.isFinite(t) ? null : new Date(t).toISOString();
const num = (label: string, unit?: string, decimals = 2): ReportColumn => ({
  label,
  ...(unit ? { unit } : {}),
  kind: 'number',
  decimals,
});

export function moduleReportDocument(
  r: ModuleReport,
  lang: Language,
  fileName: string,
  x: ModuleReportExtras = NO_EXTRAS,
): ReportDocument {
  const w = (k: keyof typeof WORDS) => WORDS[k][lang];
  const day = (t: number) => formatLocal(t, r.timeZone).slice(0, 10);
  const from = Date.parse(r.from);
  const to = Date.parse(r.to);
  const rangeText = `${day(from)} – ${day(to - 1)}`;
  const hasData = r.devices.some((d) => d.rows.length > 0);
  const sections = !hasData
    ? [{ title: r.moduleName, blocks: [{ kind: 'paragraph' as const, text: w('none') }] }]
    : r.template === 'B'
      ? changeSections(r, lang, x)
      : r.template === 'C'
        ? extremeSections(r, lang, x)
        : r.template === 'D'
          ? chartSections(r, lang)
          : r.template === 'E'
            ? formSections(r, lang, x)
            : periodSections(r, lang);
  return {
    title: r.template === 'E' ? `${w('formTitle')} · ${r.moduleName}` : `${w('title')} · ${r.moduleName}`,
    subtitle: r.platformName,
    language: lang,
    timeZone: r.timeZone,
    generatedAt: new Date().toISOString(),
    meta: [
      { label: w('site'), value: r.platformName },
      { label: w('type'), value: r.moduleName },
      { label: `${w('range')} (${r.timeZone})`, value: rangeText },
      { label: w('statistics'), value: PERIOD_WORDS[r.statisticsType][lang] },
      { label: w('template'), value: TEMPLATE_NAMES[r.template][lang] },
      { label: w('devices'), value: String(r.devices.length) },
    ],
    fileName,
    sections,
  };
}

type Section = ReportDocument['sections'][number];
type Device = ModuleReport['devices'][number];
type Quantity = ModuleReport['quantities'][number];

const unitOf = (q: Quantity) => q.unit || undefined;
const deviceTitle = (d: Device, lang: Language) => `${d.deviceName} (${WORDS.number[lang]} ${d.number})`;

/** A: the period rows of each device with the template's statistics, and the whole range in bold. */
function periodSections(r: ModuleReport, lang: Language): Section[] {
  const many = r.quantities.length > 1;
  return r.devices.map((d) => ({
    title: deviceTitle(d, lang),
    blocks: r.quantities.map((q): ReportBlock => {
      const line = (label: string, values: Device['summary']): ReportCellValue[] => [
        label,
        ...r.columns.map((c) => (COMPUTED.has(c) ? n2(values[q.key]?.[c]) : (values[q.key]?.[c] ?? null))),
      ];
      const rows = [...d.rows.map((row) => line(row.label, row.values)), line(WORDS.whole[lang], d.summary)];
      return {
        kind: 'table',
        ...(many ? { caption: quantityTitle(q) } : {}),
        columns: [
          { label: WORDS.period[lang], width: 12 },
          ...r.columns.map((c) =>
            num(`${many ? '' : `${q.label} `}${REPORT_STAT_LABELS[c][lang]}`, unitOf(q), c === 'count' ? 0 : 2),
          ),
        ],
        rows,
        emphasis: [rows.length - 1],
      };
    }),
  }));
}

/** B: closing value, current and cumulative change and rate per day, per period, device and quantity. */
function changeSections(r: ModuleReport, lang: Language, x: ModuleReportExtras): Section[] {
  const w = (k: keyof typeof WORDS) => WORDS[k][lang];
  const many = r.quantities.length > 1;
  const sections: Section[] = r.devices.map((d) => {
    const tables = r.quantities.map((q): ReportBlock => {
      let prev = at(x.before, d.deviceId, q.key)?.value ?? null;
      const initial = at(x.initial, d.deviceId, q.key)?.value;
      const rows: ReportCellValue[][] = d.rows.map((row) => {
        const closing = row.values[q.key]?.last ?? null;
        if (closing === null) return [row.label, null, null, null, null];
        const current = diff(closing, prev);
        prev = closing;
        return [
          row.label,
          closing,
          current,
          diff(closing, initial),
          current === null ? null : rate(current, periodDays(r, row.period)),
        ];
      });
      return {
        kind: 'table',
        ...(many ? { caption: quantityTitle(q) } : {}),
        columns: [
          { label: w('period'), width: 12 },
          num(w('closing'), unitOf(q)),
          num(w('current'), unitOf(q)),
          num(w('cumulative'), unitOf(q)),
          num(w('rate'), q.unit ? `${q.unit}/d` : undefined, 3),
        ],
        rows,
      };
    });
    const initials = r.quantities
      .map((q) => {
        const i = at(x.initial, d.deviceId, q.key);
        return i ? `${q.label}: ${i.value}${q.unit ? ` ${q.unit}` : ''} (${formatLocal(i.at, r.timeZone)})` : null;
      })
      .filter((s): s is string => s !== null);
    return {
      title: deviceTitle(d, lang),
      blocks: [
        ...(initials.length
          ? [{ kind: 'fields' as const, fields: [{ label: w('initial'), value: initials.join('; ') }] }]
          : []),
        ...tables,
      ],
    };
  });
  sections.push({ title: w('remarks'), blocks: [{ kind: 'paragraph', text: w('changeNote') }] });
  return sections;
}

const quantityTitle = (q: Quantity) => `${q.label}${q.unit ? ` (${q.unit})` : ''}`;

/** C: per quantity the extremes of each device with their times; then the alerts of the period. */
function extremeSections(r: ModuleReport, lang: Language, x: ModuleReportExtras): Section[] {
  const w = (k: keyof typeof WORDS) => WORDS[k][lang];
  const sections: Section[] = r.quantities.map((q) => {
    const sum = q.aggregate === 'sum';
    const rows = r.devices.map((d) => {
      const s = d.summary[q.key];
      const max = at(x.max, d.deviceId, q.key);
      const min = at(x.min, d.deviceId, q.key);
      const counts = x.alerts.counts.get(d.deviceId) ?? {};
      const alerts = Object.values(counts).reduce((a, b) => a + b, 0);
      return [
        d.deviceName,
        d.number,
        s?.max ?? null,
        iso(max?.at),
        s?.min ?? null,
        iso(min?.at),
        diff(s?.max, s?.min),
        n2(sum ? s?.sum : s?.avg),
        s?.count ?? 0,
        alerts,
      ];
    });
    return {
      title: `${q.label}${q.unit ? ` (${q.unit})` : ''}`,
      blocks: [
        {
          kind: 'table' as const,
          columns: [
            { label: w('device'), width: 14 },
            { label: w('number'), width: 10 },
            num(w('max'), unitOf(q)),
            { label: w('maxAt'), kind: 'time' as const, width: 17 },
            num(w('min'), unitOf(q)),
            { label: w('minAt'), kind: 'time' as const, width: 17 },
            num(w('spread'), unitOf(q)),
            num(sum ? w('total') : w('avg'), unitOf(q)),
            num(w('readings'), undefined, 0),
            num(w('alertsCol'), undefined, 0),
          ],
          rows,
        },
      ],
    };
  });
  sections.push({ title: w('alerts'), blocks: alertBlocks(r, lang, x) });
  return sections;
}

function alertBlocks(r: ModuleReport, lang: Language, x: ModuleReportExtras): ReportBlock[] {
  const w = (k: keyof typeof WORDS) => WORDS[k][lang];
  if (x.alerts.total === 0) return [{ kind: 'paragraph', text: w('noAlerts') }];
  const names = new Map(r.devices.map((d) => [d.deviceId, d.deviceName]));
  const qLabel = new Map(r.quantities.map((q) => [q.key, q.label]));
  const blocks: ReportBlock[] = [
    {
      kind: 'table',
      columns: [
        { label: w('firstAt'), kind: 'time', width: 17 },
        { label: w('device'), width: 14 },
        { label: w('quantity'), width: 10 },
        { label: w('level'), width: 14 },
        num(w('value')),
        num(w('threshold')),
        { label: w('status'), width: 10 },
      ],
      rows: x.alerts.list.map((a) => [
        new Date(a.firstAt).toISOString(),
        names.get(a.deviceId) ?? String(a.deviceId),
        a.quantity === null ? '' : (qLabel.get(a.quantity) ?? a.quantity),
        reportWord(REPORT_ALERT_LEVELS, a.level, lang),
        a.firstValue,
        a.threshold,
        reportWord(REPORT_ALERT_STATUSES, a.status, lang),
      ]),
    },
  ];
  if (x.alerts.total > x.alerts.list.length)
    blocks.push({
      kind: 'paragraph',
      text: w('moreAlerts').replace('{n}', String(x.alerts.list.length)).replace('{total}', String(x.alerts.total)),
    });
  return blocks;
}

/** D: per quantity a chart of every device's period figure, then the same as a table (periods down). */
function chartSections(r: ModuleReport, lang: Language): Section[] {
  const w = (k: keyof typeof WORDS) => WORDS[k][lang];
  const periods = [...new Set(r.devices.flatMap((d) => d.rows.map((row) => row.period)))].sort();
  const labels = new Map(r.devices.flatMap((d) => d.rows.map((row) => [row.period, row.label] as const)));
  return r.quantities.map((q) => {
    const stat = q.aggregate === 'sum' ? 'sum' : 'avg';
    const statLabel = stat === 'sum' ? w('total') : w('avg');
    const byDevice = r.devices.map(
      (d) => new Map(d.rows.map((row) => [row.period, row.values[q.key]?.[stat] ?? null])),
    );
    return {
      title: `${q.label}${q.unit ? ` (${q.unit})` : ''}`,
      blocks: [
        {
          kind: 'chart' as const,
          chart: {
            title: w('chartOf')
              .replace('{q}', `${q.label} ${statLabel}`)
              .replace('{p}', PERIOD_WORDS[r.statisticsType][lang]),
            x: { scale: 'time' as const },
            y: { scale: 'value' as const, label: q.label, ...(q.unit ? { unit: q.unit } : {}) },
            series: r.devices.map((d, i) => ({
              name: d.deviceName,
              style: stat === 'sum' && r.devices.length === 1 ? ('bar' as const) : ('line' as const),
              points: periods.map((p): [number, number | null] => [Date.parse(p), n2(byDevice[i]!.get(p))]),
            })),
          },
        },
        {
          kind: 'table' as const,
          caption: `${q.label} ${statLabel}`,
          columns: [{ label: w('period'), width: 12 }, ...r.devices.map((d) => num(d.deviceName, unitOf(q)))],
          rows: periods.map((p) => [labels.get(p) ?? p, ...byDevice.map((m) => n2(m.get(p)))]),
        },
      ],
    };
  });
}

/** E: the observation form, one table per quantity, and the signature block. */
function formSections(r: ModuleReport, lang: Language, x: ModuleReportExtras): Section[] {
  const w = (k: keyof typeof WORDS) => WORDS[k][lang];
  const sections: Section[] = r.quantities.map((q) => ({
    title: `${q.label}${q.unit ? ` (${q.unit})` : ''}`,
    blocks: [
      {
        kind: 'table' as const,
        columns: [
          num(w('no'), undefined, 0),
          { label: w('device'), width: 14 },
          { label: w('number'), width: 10 },
          num(w('previous'), unitOf(q)),
          num(w('present'), unitOf(q)),
          num(w('change'), unitOf(q)),
          num(w('cumulative'), unitOf(q)),
          num(w('max'), unitOf(q)),
          num(w('min'), unitOf(q)),
          { label: w('state'), width: 8 },
          { label: w('remarks'), width: 12 },
        ],
        rows: r.devices.map((d, i) => {
          const current = d.summary[q.key]?.last ?? null;
          const previous = at(x.before, d.deviceId, q.key)?.value ?? null;
          const initial = at(x.initial, d.deviceId, q.key)?.value ?? null;
          return [
            i + 1,
            d.deviceName,
            d.number,
            previous,
            current,
            diff(current, previous),
            diff(current, initial),
            d.summary[q.key]?.max ?? null,
            d.summary[q.key]?.min ?? null,
            reportWord(REPORT_DEVICE_STATES, x.states.get(d.deviceId) ?? '', lang),
            '',
          ];
        }),
      },
    ],
  }));
  sections.push({
    title: w('remarks'),
    blocks: [
      { kind: 'paragraph', text: w('formNote') },
      {
        kind: 'fields',
        fields: (['observer', 'calculator', 'checker', 'lead', 'signDate'] as const).map((k) => ({
          label: w(k),
          value: '________________',
        })),
      },
    ],
  });
  return sections;
}

/** Days of the period starting at `period` (its calendar bucket in the report's zone, cut to the report's range). */
function periodDays(r: ModuleReport, period: string): number {
  if (r.statisticsType === 'original') return NaN;
  const t = Math.max(Date.parse(period), Date.parse(r.from));
  const end = Math.min(nextBucket(Date.parse(period), r.statisticsType, r.timeZone), Date.parse(r.to));
  return (end - t) / 86_400_000;
}

/** Change per day to 3 decimals, on the rounded change (what the table shows), half away from zero. */
function rate(change: number, days: number): number | null {
  if (!(days > 0)) return null;
  const v = change / days;
  const r = (Math.sign(v) * Math.round(Math.abs(v) * 1000 + 1e-9)) / 1000;
  return r === 0 ? 0 : r;
}
