// The module report workbook (getModuleDataReport?format=xlsx): one sheet, translated headers.
import { REPORT_STAT_LABELS, formatLocal, type Language, type ModuleReport } from '@geosentry/contract';
import { neutralise, writeWorkbook, type SheetRow } from '../../platform/files/spreadsheet.ts';

const WORDS: Record<'site' | 'type' | 'range' | 'device' | 'number' | 'period' | 'whole', Record<Language, string>> = {
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
