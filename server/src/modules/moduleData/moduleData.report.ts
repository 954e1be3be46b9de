// The module report workbook (getModuleDataReport?format=xlsx): one sheet, translated headers; and the same
// report as a ReportDocument (format=pdf, drawn by platform/reports).
import {
  REPORT_STAT_LABELS,
  formatLocal,
  type Language,
  type ModuleReport,
  type ReportDocument,
} from '@geosentry/contract';
import { neutralise, writeWorkbook, type SheetRow } from '../../platform/files/spreadsheet.ts';

const WORDS: Record<
  'site' | 'type' | 'range' | 'device' | 'number' | 'period' | 'whole' | 'title' | 'template' | 'statistics' | 'none',
  Record<Language, string>
> = {
  title: { en: 'Module data report', zh: '模块数据报表', ko: '모듈 데이터 보고서' },
  template: { en: 'Template', zh: '模板', ko: '템플릿' },
  statistics: { en: 'Statistics period', zh: '统计周期', ko: '통계 주기' },
  none: { en: 'No readings in this period.', zh: '该时段内没有数据。', ko: '이 기간에 데이터가 없습니다.' },
  site: { en: 'Site', zh: '平台', ko: '현장' },
  type: { en: 'Monitor type', zh: '监测类型', ko: '모니터링 유형' },
  range: { en: 'Time range', zh: '时间范围', ko: '기간' },
  device: { en: 'Device', zh: '设备', ko: '장치' },
  number: { en: 'Number', zh: '编号', ko: '번호' },
  period: { en: 'Period', zh: '时间', ko: '기간' },
  whole: { en: 'Whole range', zh: '全时段', ko: '전체 기간' },
};

export async function reportWorkbook(r: ModuleReport, lang: Language): Promise<Buffer> {
  const rows: SheetRow[] = [];
  rows.push({ cells: [WORDS.site[lang], r.platformName] });
  rows.push({ cells: [WORDS.type[lang], r.moduleName] });
  // The local days the report covers (`to` is exclusive), and the zone they are days of.
  const day = (t: number) => formatLocal(t, r.timeZone).slice(0, 10);
  rows.push({
    cells: [`${WORDS.range[lang]} (${r.timeZone})`, `${day(Date.parse(r.from))} - ${day(Date.parse(r.to) - 1)}`],
  });
  rows.push({ cells: [] });
  const header = [WORDS.device[lang], WORDS.number[lang], WORDS.period[lang]];
  for (const q of r.quantities)
    for (const c of r.columns) header.push(`${q.label}${q.unit ? ` (${q.unit})` : ''} ${REPORT_STAT_LABELS[c][lang]}`);
  rows.push({ cells: header, font: 'bold' });
  for (const d of r.devices) {
    const line = (label: string, values: ModuleReport['devices'][number]['summary']): (string | number | null)[] => {
      const cells: (string | number | null)[] = [d.deviceName, d.number, label];
      for (const q of r.quantities) for (const c of r.columns) cells.push(values[q.key]?.[c] ?? null);
      return cells;
    };
    for (const row of d.rows) rows.push({ cells: line(row.label, row.values) });
    rows.push({ cells: line(WORDS.whole[lang], d.summary), font: 'italic' });
  }
  return writeWorkbook([{ name: neutralise(r.moduleName).slice(0, 31) || 'report', rows, columnWidth: 18 }]);
}

const PERIOD_WORDS: Record<ModuleReport['statisticsType'], Record<Language, string>> = {
  day: { en: 'Day', zh: '日', ko: '일' },
  week: { en: 'Week', zh: '周', ko: '주' },
  month: { en: 'Month', zh: '月', ko: '월' },
  year: { en: 'Year', zh: '年', ko: '년' },
};

/**
 * The report as a document (the PDF): the site card, then one section per device with its period rows and the
 * whole-range row in bold; numbers as the report computed them (2 decimals shown).
 */
export function moduleReportDocument(r: ModuleReport, lang: Language, fileName: string): ReportDocument {
  const day = (t: number) => formatLocal(t, r.timeZone).slice(0, 10);
  const columns: ReportDocument['sections'][number]['blocks'][number] & { kind: 'table' } = {
    kind: 'table',
    columns: [
      { label: WORDS.period[lang], width: 12 },
      ...r.quantities.flatMap((q) =>
        r.columns.map((c) => ({
          label: `${q.label} ${REPORT_STAT_LABELS[c][lang]}`,
          unit: q.unit || undefined,
          kind: 'number' as const,
          decimals: c === 'count' ? 0 : 2,
        })),
      ),
    ],
    rows: [],
  };
  return {
    title: `${WORDS.title[lang]} · ${r.moduleName}`,
    subtitle: r.platformName,
    language: lang,
    timeZone: r.timeZone,
    generatedAt: new Date().toISOString(),
    meta: [
      { label: WORDS.site[lang], value: r.platformName },
      { label: WORDS.type[lang], value: r.moduleName },
      {
        label: `${WORDS.range[lang]} (${r.timeZone})`,
        value: `${day(Date.parse(r.from))} - ${day(Date.parse(r.to) - 1)}`,
      },
      { label: WORDS.statistics[lang], value: PERIOD_WORDS[r.statisticsType][lang] },
      { label: WORDS.template[lang], value: r.template },
    ],
    fileName,
    sections: r.devices.length
      ? r.devices.map((d) => {
          const line = (label: string, values: ModuleReport['devices'][number]['summary']) => [
            label,
            ...r.quantities.flatMap((q) => r.columns.map((c) => values[q.key]?.[c] ?? null)),
          ];
          const rows = [...d.rows.map((row) => line(row.label, row.values)), line(WORDS.whole[lang], d.summary)];
          return {
            title: `${d.deviceName} (${WORDS.number[lang]} ${d.number})`,
            blocks: [{ ...columns, rows, emphasis: [rows.length - 1] }],
          };
        })
      : [{ title: r.moduleName, blocks: [{ kind: 'paragraph', text: WORDS.none[lang] }] }],
  };
}
