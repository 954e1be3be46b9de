// The general report as a ReportDocument (contract/src/reportDocument): texts in the report's language, numbers
// already rounded, times ISO UTC shown in the named zone. No file format here: the platform's renderers draw it.
import {
  REPORT_ALERT_LEVELS,
  REPORT_ALERT_STATUSES,
  REPORT_DEVICE_STATES,
  formatLocal,
  monitorTypeLabel,
  quantitiesOf,
  type GeneralReport,
  type Language,
  type ReportBlock,
  type ReportDocument,
} from '@geosentry/contract';

type W = Record<Language, string>;
const WORDS = {
  title: { en: 'Monitoring report', zh: '监测报告', ko: '모니터링 보고서' },
  site: { en: 'Site', zh: '平台', ko: '현장' },
  period: { en: 'Period', zh: '时间范围', ko: '기간' },
  author: { en: 'Author', zh: '编制人', ko: '작성자' },
  date: { en: 'Date', zh: '编制日期', ko: '작성일' },
  siteCard: { en: 'Site card', zh: '平台信息', ko: '현장 정보' },
  type: { en: 'Site type', zh: '平台类型', ko: '현장 유형' },
  deviceCount: { en: 'Devices', zh: '设备数', ko: '장치 수' },
  devices: { en: 'Devices and data completeness', zh: '设备状态与数据完整率', ko: '장치 상태와 데이터 완전성' },
  device: { en: 'Device', zh: '设备', ko: '장치' },
  monitorType: { en: 'Monitor type', zh: '监测类型', ko: '모니터링 유형' },
  state: { en: 'State', zh: '状态', ko: '상태' },
  interval: { en: 'Interval (min)', zh: '上报间隔 (min)', ko: '보고 간격 (min)' },
  received: { en: 'Received', zh: '实收条数', ko: '수신' },
  expected: { en: 'Expected', zh: '应收条数', ko: '예상' },
  completeness: { en: 'Completeness (%)', zh: '完整率 (%)', ko: '완전성 (%)' },
  completenessNote: {
    en: 'Expected readings = whole reporting intervals in the period (the device parameter reportingIntervalMinutes, else 60 minutes); completeness = received / expected, at most 100 %.',
    zh: '应收条数 = 时间范围内完整的上报间隔数（设备参数 reportingIntervalMinutes，默认 60 分钟）；完整率 = 实收 / 应收，最高 100%。',
    ko: '예상 데이터 수 = 기간 내 완전한 보고 간격 수(장치 매개변수 reportingIntervalMinutes, 기본 60분); 완전성 = 수신 / 예상, 최대 100%.',
  },
  alerts: { en: 'Alerts and their handling', zh: '告警及处理情况', ko: '경보와 처리' },
  noAlerts: { en: 'No alert in the period.', zh: '该时间范围内无告警。', ko: '기간 중 경보가 없습니다.' },
  firstAt: { en: 'First at', zh: '首次时间', ko: '최초 시각' },
  quantity: { en: 'Quantity', zh: '监测量', ko: '측정량' },
  level: { en: 'Level', zh: '等级', ko: '등급' },
  status: { en: 'Status', zh: '处理状态', ko: '처리 상태' },
  lastValue: { en: 'Last value', zh: '最新值', ko: '최근 값' },
  handling: {
    en: 'Handling (when, who, what)',
    zh: '处理记录（时间、人员、操作）',
    ko: '처리 기록 (시각, 담당, 조치)',
  },
  changes: { en: 'Largest changes', zh: '最大变化量', ko: '최대 변화량' },
  noChanges: { en: 'No readings in the period.', zh: '该时间范围内无数据。', ko: '기간 중 데이터가 없습니다.' },
  first: { en: 'First', zh: '期初值', ko: '처음 값' },
  last: { en: 'Last', zh: '期末值', ko: '마지막 값' },
  change: { en: 'Change', zh: '变化量', ko: '변화량' },
  conclusions: { en: 'Conclusions', zh: '结论', ko: '결론' },
  charts: { en: 'Charts per monitor type', zh: '各监测类型曲线', ko: '모니터링 유형별 차트' },
  hourMean: { en: 'hourly mean', zh: '小时均值', ko: '시간 평균' },
  dayMean: { en: 'daily mean', zh: '日均值', ko: '일 평균' },
  hourTotal: { en: 'hourly total', zh: '小时累计', ko: '시간 합계' },
  dayTotal: { en: 'daily total', zh: '日累计', ko: '일 합계' },
  noConclusions: { en: '(none written)', zh: '（未填写）', ko: '(작성되지 않음)' },
} satisfies Record<string, W>;

const STATES = REPORT_DEVICE_STATES;
const STATUSES = REPORT_ALERT_STATUSES;
export const SITE_TYPES: Record<string, W> = {
  disaster: { en: 'Hazard point', zh: '地质灾害点', ko: '재해 지점' },
  sideslope: { en: 'Slope', zh: '边坡', ko: '사면' },
  tailings: { en: 'Tailings pond', zh: '尾矿库', ko: '광미 저장소' },
  reservoir: { en: 'Reservoir', zh: '水库', ko: '저수지' },
  river: { en: 'River', zh: '河道', ko: '하천' },
  bridge: { en: 'Bridge', zh: '桥梁', ko: '교량' },
};
const ACTIONS: Record<string, W> = {
  raised: { en: 'raised', zh: '触发', ko: '발생' },
  escalated: { en: 'escalated', zh: '升级', ko: '격상' },
  saved: { en: 'handling saved', zh: '保存处理意见', ko: '처리 저장' },
  processed: { en: 'processed', zh: '处理完成', ko: '처리 완료' },
};
const LEVELS = REPORT_ALERT_LEVELS;

/** The chart of one monitor type: its first quantity per device, by local hour or day (mean, or total when summed). */
export interface GeneralChart {
  moduleId: number;
  quantity: string;
  total: boolean;
  unit: 'hour' | 'day';
  series: { name: string; points: [number, number][] }[];
}

export interface GeneralDocInput {
  report: Omit<GeneralReport, 'document'>;
  charts: GeneralChart[];
  lang: Language;
  siteName: string;
  siteType: string;
  author: string;
  conclusions: string | undefined;
  now: number;
}

export function generalDocument(i: GeneralDocInput): ReportDocument {
  const { report: r, lang } = i;
  const w = (k: keyof typeof WORDS) => WORDS[k][lang];
  const tz = r.timeZone;
  const at = (iso: string) => formatLocal(Date.parse(iso), tz);
  const from = Date.parse(r.from);
  const to = Date.parse(r.to);
  const periodText = `${formatLocal(from, tz)} – ${formatLocal(to, tz)} (${tz})`;
  const label = (m: Record<string, W>, k: string) => m[k]?.[lang] ?? k;
  const modules = [...new Set(r.devices.map((d) => d.moduleId))];
  /** A quantity's label (with its unit) from the monitor types of the site's devices; the key if none has it. */
  const qty = (k: string | null) => {
    if (k === null) return null;
    for (const m of modules) {
      const q = quantitiesOf(m).find((x) => x.key === k);
      if (q) return q.unit ? `${q.label[lang]} (${q.unit})` : q.label[lang];
    }
    return k;
  };
  const deviceBlocks: ReportBlock[] = [
    {
      kind: 'table',
      columns: [
        { label: w('device') },
        { label: w('monitorType') },
        { label: w('state') },
        { label: w('interval'), kind: 'number' },
        { label: w('received'), kind: 'number' },
        { label: w('expected'), kind: 'number' },
        { label: w('completeness'), kind: 'number' },
      ],
      rows: r.devices.map((d) => [
        d.deviceName,
        monitorTypeLabel(d.moduleId, lang),
        label(STATES, d.state),
        d.intervalMinutes,
        d.received,
        d.expected,
        d.completeness,
      ]),
    },
    { kind: 'paragraph', text: w('completenessNote') },
  ];
  const alertBlocks: ReportBlock[] = r.alerts.length
    ? [
        {
          kind: 'table',
          columns: [
            { label: `${w('firstAt')} (${tz})` },
            { label: w('device') },
            { label: w('quantity') },
            { label: w('level') },
            { label: w('lastValue'), kind: 'number' },
            { label: w('status') },
            { label: w('handling') },
          ],
          rows: r.alerts.map((a) => [
            at(a.firstAt),
            a.deviceName,
            qty(a.quantity),
            LEVELS[a.level]?.[lang] ?? String(a.level),
            a.lastValue,
            label(STATUSES, a.status),
            a.actions
              .map((x) => `${at(x.at)} ${x.userName ?? ''} ${label(ACTIONS, x.action)}`.replace(/\s+/g, ' '))
              .join('; '),
          ]),
        },
      ]
    : [{ kind: 'paragraph', text: w('noAlerts') }];
  const changeBlocks: ReportBlock[] = r.changes.length
    ? [
        {
          kind: 'table',
          columns: [
            { label: w('device') },
            { label: w('quantity') },
            { label: w('first'), kind: 'number' },
            { label: w('last'), kind: 'number' },
            { label: w('change'), kind: 'number' },
          ],
          rows: r.changes.map((c) => [c.deviceName, qty(c.quantity), c.first, c.last, c.change]),
        },
      ]
    : [{ kind: 'paragraph', text: w('noChanges') }];
  const day = formatLocal(i.now, tz).slice(0, 10);
  return {
    title: `${i.siteName} ${w('title')}`,
    subtitle: periodText,
    language: lang,
    timeZone: tz,
    generatedAt: new Date(i.now).toISOString(),
    meta: [
      { label: w('site'), value: i.siteName },
      { label: w('period'), value: periodText },
      { label: w('author'), value: i.author },
      { label: w('date'), value: day },
    ],
    sections: [
      {
        title: w('siteCard'),
        blocks: [
          {
            kind: 'fields',
            fields: [
              { label: w('site'), value: i.siteName },
              { label: w('type'), value: label(SITE_TYPES, i.siteType) },
              { label: w('deviceCount'), value: String(r.devices.length) },
            ],
          },
        ],
      },
      { title: w('devices'), blocks: deviceBlocks },
      {
        title: w('charts'),
        blocks: i.charts.length
          ? i.charts.map((c): ReportBlock => {
              const q = quantitiesOf(c.moduleId).find((x) => x.key === c.quantity);
              const name = q ? q.label[lang] : c.quantity;
              const stat = c.total
                ? w(c.unit === 'hour' ? 'hourTotal' : 'dayTotal')
                : w(c.unit === 'hour' ? 'hourMean' : 'dayMean');
              return {
                kind: 'chart',
                chart: {
                  title: `${monitorTypeLabel(c.moduleId, lang)} · ${name} (${stat})`,
                  x: { scale: 'time' },
                  y: { scale: 'value', label: name, ...(q?.unit ? { unit: q.unit } : {}) },
                  series: c.series.map((s) => ({ ...s, ...(c.total ? { style: 'bar' as const } : {}) })),
                },
              };
            })
          : [{ kind: 'paragraph', text: w('noChanges') }],
      },
      { title: w('alerts'), blocks: alertBlocks },
      { title: w('changes'), blocks: changeBlocks },
      {
        title: w('conclusions'),
        blocks: [{ kind: 'paragraph', text: i.conclusions?.trim() || w('noConclusions') }],
      },
    ],
    fileName: `general-report-${r.platformId}-${formatLocal(from, tz).slice(0, 10)}`,
  };
}
