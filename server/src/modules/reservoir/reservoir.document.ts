// The reservoir comprehensive report as a ReportDocument: texts in the report's language, numbers rounded, times
// ISO UTC shown in the named zone. No file format here: the platform's renderers draw it.
import {
  formatLocal,
  monitorTypeLabel,
  quantitiesOf,
  type ComprehensiveReport,
  type Language,
  type ReportBlock,
  type ReportDocument,
  type ReportSeries,
} from '@geosentry/contract';

type W = Record<Language, string>;
const WORDS = {
  title: { en: 'Reservoir comprehensive report', zh: '水库综合报表', ko: '저수지 종합 보고서' },
  site: { en: 'Reservoir', zh: '水库', ko: '저수지' },
  period: { en: 'Period', zh: '时间范围', ko: '기간' },
  stat: { en: 'Statistics by', zh: '统计方式', ko: '통계 단위' },
  source: { en: 'Water level source', zh: '水位来源', ko: '수위 출처' },
  auto: { en: 'automatic', zh: '自动', ko: '자동' },
  manual: { en: 'manual', zh: '人工', ko: '수동' },
  none: { en: 'none', zh: '无', ko: '없음' },
  section: { en: 'section', zh: '断面', ko: '단면' },
  device: { en: 'Device', zh: '设备', ko: '장치' },
  flood: { en: 'Flood level', zh: '防洪高水位', ko: '홍수위' },
  limited: { en: 'Flood-limited level', zh: '汛限水位', ko: '제한 수위' },
  water: { en: 'Water level and storage', zh: '水位与库容', ko: '수위와 저수량' },
  level: { en: 'Water level', zh: '水位', ko: '수위' },
  avg: { en: 'Average', zh: '平均', ko: '평균' },
  max: { en: 'Highest', zh: '最高', ko: '최고' },
  min: { en: 'Lowest', zh: '最低', ko: '최저' },
  first: { en: 'First', zh: '期初', ko: '기초' },
  last: { en: 'Last', zh: '期末', ko: '기말' },
  change: { en: 'Change', zh: '变化量', ko: '변화량' },
  sum: { en: 'Total', zh: '累计', ko: '합계' },
  count: { en: 'Readings', zh: '数据条数', ko: '데이터 수' },
  storage: { en: 'Storage', zh: '库容', ko: '저수량' },
  storageFirst: { en: 'Storage at the start', zh: '期初库容', ko: '기초 저수량' },
  storageLast: { en: 'Storage at the end', zh: '期末库容', ko: '기말 저수량' },
  storageChange: { en: 'Storage change', zh: '库容变化', ko: '저수량 변화' },
  overLimited: {
    en: 'Periods over the flood-limited level',
    zh: '超汛限水位的时段数',
    ko: '제한 수위 초과 기간 수',
  },
  periodCol: { en: 'Period', zh: '时段', ko: '기간' },
  quantity: { en: 'Quantity', zh: '监测量', ko: '측정 항목' },
  type: { en: 'Monitor type', zh: '监测类型', ko: '모니터링 유형' },
  seepage: { en: 'Seepage', zh: '渗流', ko: '침투' },
  deformation: { en: 'Deformation', zh: '变形', ko: '변형' },
  rain: { en: 'Rainfall', zh: '降雨量', ko: '강우량' },
  noDevices: {
    en: 'No devices of this kind on the site.',
    zh: '该水库没有此类设备。',
    ko: '이 현장에 해당 장치가 없습니다.',
  },
  noLevel: {
    en: 'No water level in the period.',
    zh: '该时间范围内没有水位数据。',
    ko: '기간 중 수위 데이터가 없습니다.',
  },
  storageNote: {
    en: 'Storage from the capacity table by linear interpolation between its rows; a level outside the table has no storage (no extrapolation).',
    zh: '库容按库容曲线表相邻两行线性插值；超出表格范围的水位不计算库容（不外推）。',
    ko: '저수량은 용량표의 인접한 두 행 사이 선형 보간으로 구하며, 표 범위 밖의 수위는 저수량을 계산하지 않습니다 (외삽 없음).',
  },
} satisfies Record<string, W>;
const STAT: Record<string, W> = {
  hour: { en: 'hour', zh: '小时', ko: '시간' },
  day: { en: 'day', zh: '日', ko: '일' },
  week: { en: 'week', zh: '周', ko: '주' },
  month: { en: 'month', zh: '月', ko: '월' },
  year: { en: 'year', zh: '年', ko: '연' },
};

const fmt = (v: number | null, unit: string) => (v === null ? '—' : `${v} ${unit}`);

export function comprehensiveDocument(
  r: Omit<ComprehensiveReport, 'document'>,
  L: Language,
  _details: Record<string, unknown>,
): ReportDocument {
  const w = (k: keyof typeof WORDS) => WORDS[k][L];
  const from = Date.parse(r.from);
  const to = Date.parse(r.to);
  const local = (t: number) => formatLocal(t, r.timeZone).slice(0, 16);
  const STORE = '10⁴ m³';
  const sourceText =
    r.source === 'auto'
      ? `${w('auto')}${r.deviceName ? ` (${r.deviceName})` : ` (${w('none')})`}`
      : `${w('manual')}${r.segmentName ? ` (${w('section')} ${r.segmentName})` : ''}`;
  // Water level.
  const lines: { label: string; value: number; colour: string }[] = [];
  if (r.floodLevel !== null) lines.push({ label: w('flood'), value: r.floodLevel, colour: '#c62828' });
  if (r.limitedFloodLevel !== null) lines.push({ label: w('limited'), value: r.limitedFloodLevel, colour: '#f9a825' });
  const P = r.water.periods;
  const waterBlocks: ReportBlock[] = [
    {
      kind: 'fields',
      fields: [
        { label: w('flood'), value: fmt(r.floodLevel, 'm') },
        { label: w('limited'), value: fmt(r.limitedFloodLevel, 'm') },
        { label: `${w('level')} ${w('first')}`, value: fmt(r.water.first, 'm') },
        { label: `${w('level')} ${w('last')}`, value: fmt(r.water.last, 'm') },
        { label: `${w('level')} ${w('max')}`, value: fmt(r.water.max, 'm') },
        { label: `${w('level')} ${w('min')}`, value: fmt(r.water.min, 'm') },
        { label: w('storageFirst'), value: fmt(r.water.storageFirst, STORE) },
        { label: w('storageLast'), value: fmt(r.water.storageLast, STORE) },
        { label: w('storageChange'), value: fmt(r.water.storageChange, STORE) },
        { label: w('overLimited'), value: String(r.water.overLimitedPeriods) },
      ],
    },
  ];
  if (!P.some((p) => p.count > 0)) waterBlocks.push({ kind: 'paragraph', text: w('noLevel') });
  const series: ReportSeries[] = [
    { name: `${w('level')} ${w('avg')}`, points: P.map((p) => [Date.parse(p.period), p.avg]), style: 'line' },
    {
      name: `${w('level')} ${w('max')}`,
      points: P.map((p) => [Date.parse(p.period), p.max]),
      style: 'line',
      dashed: true,
    },
  ];
  waterBlocks.push({
    kind: 'chart',
    chart: {
      title: w('level'),
      x: { scale: 'time' },
      y: { label: w('level'), unit: 'm', scale: 'value' },
      series,
      lines,
    },
  });
  waterBlocks.push({
    kind: 'table',
    columns: [
      { label: w('periodCol'), width: 16 },
      { label: w('avg'), unit: 'm', kind: 'number', decimals: 2 },
      { label: w('max'), unit: 'm', kind: 'number', decimals: 2 },
      { label: w('min'), unit: 'm', kind: 'number', decimals: 2 },
      { label: w('last'), unit: 'm', kind: 'number', decimals: 2 },
      { label: w('storage'), unit: STORE, kind: 'number', decimals: 2 },
      { label: w('count'), kind: 'number', decimals: 0 },
    ],
    rows: P.map((p) => [p.label, p.avg, p.max, p.min, p.last, p.storage, p.count]),
    emphasis: P.flatMap((p, i) =>
      r.limitedFloodLevel !== null && p.max !== null && p.max > r.limitedFloodLevel ? [i] : [],
    ),
  });
  waterBlocks.push({ kind: 'paragraph', text: w('storageNote') });
  const sections: ReportDocument['sections'] = [{ title: w('water'), blocks: waterBlocks }];
  // Seepage, deformation, rain.
  for (const g of r.groups) {
    const blocks: ReportBlock[] = [];
    if (!g.devices.length) blocks.push({ kind: 'paragraph', text: w('noDevices') });
    else {
      const rain = g.group === 'rain';
      const qLabel = (d: (typeof g.devices)[number]) =>
        quantitiesOf(d.moduleId).find((q) => q.key === d.quantity)?.label[L] ?? d.quantity;
      blocks.push({
        kind: 'table',
        columns: [
          { label: w('device'), width: 18 },
          { label: w('type'), width: 14 },
          { label: w('quantity'), width: 14 },
          { label: 'unit', width: 6 },
          ...(rain
            ? [
                { label: w('sum'), kind: 'number' as const, decimals: 1 },
                { label: w('max'), kind: 'number' as const, decimals: 1 },
              ]
            : [
                { label: w('avg'), kind: 'number' as const, decimals: 2 },
                { label: w('max'), kind: 'number' as const, decimals: 2 },
                { label: w('min'), kind: 'number' as const, decimals: 2 },
                { label: w('last'), kind: 'number' as const, decimals: 2 },
                { label: w('change'), kind: 'number' as const, decimals: 2 },
              ]),
        ],
        rows: g.devices.map((d) => [
          d.deviceName,
          monitorTypeLabel(d.moduleId, L),
          qLabel(d),
          d.unit,
          ...(rain
            ? [
                d.sum,
                d.periods.reduce<number | null>(
                  (m, p) => (p.sum === null ? m : m === null ? p.sum : Math.max(m, p.sum)),
                  null,
                ),
              ]
            : [d.avg, d.max, d.min, d.last, d.change]),
        ]),
      });
      // One chart per quantity and unit: period averages (rain: period totals).
      const byUnit = new Map<string, typeof g.devices>();
      for (const d of g.devices)
        byUnit.set(`${d.quantity}|${d.unit}`, [...(byUnit.get(`${d.quantity}|${d.unit}`) ?? []), d]);
      for (const list of byUnit.values()) {
        if (list.every((d) => d.periods.every((p) => p.count === 0))) continue;
        const d0 = list[0]!;
        blocks.push({
          kind: 'chart',
          chart: {
            title: `${w(g.group)}: ${qLabel(d0)}`,
            x: { scale: 'time' },
            y: { label: qLabel(d0), unit: d0.unit, scale: 'value' },
            series: list.map((d) => ({
              name: d.deviceName,
              points: d.periods.map((p): [number, number | null] => [Date.parse(p.period), rain ? p.sum : p.avg]),
              style: rain ? 'bar' : 'line',
            })),
          },
        });
      }
    }
    sections.push({ title: w(g.group), blocks });
  }
  // The 'unit' column header in the language of the report.
  const unitWord: W = { en: 'Unit', zh: '单位', ko: '단위' };
  for (const s of sections)
    for (const b of s.blocks)
      if (b.kind === 'table') for (const c of b.columns) if (c.label === 'unit') c.label = unitWord[L];
  const day = (t: number) => formatLocal(t, r.timeZone).slice(0, 10);
  return {
    title: w('title'),
    subtitle: r.platformName,
    language: L,
    timeZone: r.timeZone,
    generatedAt: new Date().toISOString(),
    meta: [
      { label: w('site'), value: r.platformName },
      { label: w('period'), value: `${local(from)} – ${local(to)}` },
      { label: w('stat'), value: STAT[r.statisticsType]![L] },
      { label: w('source'), value: sourceText },
    ],
    sections,
    fileName: `reservoir-${r.platformId}-${day(from)}-${day(to - 1)}-${r.statisticsType}`,
  };
}
