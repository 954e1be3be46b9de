// The module report workbook (getModuleDataReport?format=xlsx): one sheet, translated headers.
import ExcelJS from 'exceljs';
import { REPORT_STAT_LABELS, formatLocal, type Language, type ModuleReport } from '@geosentry/contract';

const WORDS: Record<'site' | 'type' | 'range' | 'device' | 'number' | 'period' | 'whole', Record<Language, string>> = {
  site: { en: 'Site', zh: '平台', ko: '현장' },
  type: { en: 'Monitor type', zh: '监测类型', ko: '모니터링 유형' },
  range: { en: 'Time range', zh: '时间范围', ko: '기간' },
  device: { en: 'Device', zh: '设备', ko: '장치' },
  number: { en: 'Number', zh: '编号', ko: '번호' },
  period: { en: 'Period', zh: '时间', ko: '기간' },
  whole: { en: 'Whole range', zh: '全时段', ko: '전체 기간' },
};

/** A text cell that a spreadsheet must not read as a formula. */
const text = (s: string): string => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

export async function reportWorkbook(r: ModuleReport, lang: Language): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(text(r.moduleName).slice(0, 31) || 'report');
  ws.addRow([WORDS.site[lang], text(r.platformName)]);
  ws.addRow([WORDS.type[lang], text(r.moduleName)]);
  // The local days the report covers (`to` is exclusive), and the zone they are days of.
  const day = (t: number) => formatLocal(t, r.timeZone).slice(0, 10);
  ws.addRow([`${WORDS.range[lang]} (${r.timeZone})`, `${day(Date.parse(r.from))} - ${day(Date.parse(r.to) - 1)}`]);
  ws.addRow([]);
  const header = [WORDS.device[lang], WORDS.number[lang], WORDS.period[lang]];
  for (const q of r.quantities)
    for (const c of r.columns) header.push(`${q.label}${q.unit ? ` (${q.unit})` : ''} ${REPORT_STAT_LABELS[c][lang]}`);
  const h = ws.addRow(header);
  h.font = { bold: true };
  for (const d of r.devices) {
    const line = (label: string, values: ModuleReport['devices'][number]['summary']) => {
      const cells: (string | number | null)[] = [text(d.deviceName), text(d.number), label];
      for (const q of r.quantities) for (const c of r.columns) cells.push(values[q.key]?.[c] ?? null);
      return ws.addRow(cells);
    };
    for (const row of d.rows) line(row.label, row.values);
    line(WORDS.whole[lang], d.summary).font = { italic: true };
  }
  ws.columns.forEach((c) => (c.width = 18));
  return Buffer.from((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}
