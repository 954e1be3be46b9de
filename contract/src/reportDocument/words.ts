// Words several reports print for the same codes (device states, alert levels and statuses), in the three
// languages; one place so the module, general and reservoir reports say the same thing.
import type { Language } from '../api/envelope.ts';

export type ReportWords = Record<Language, string>;

export const REPORT_DEVICE_STATES: Record<string, ReportWords> = {
  normal: { en: 'Normal', zh: '正常', ko: '정상' },
  alert: { en: 'Alert', zh: '告警', ko: '경보' },
  alarm: { en: 'Alarm', zh: '报警', ko: '경고' },
  abnormal: { en: 'Abnormal', zh: '异常', ko: '이상' },
  offline: { en: 'Offline', zh: '离线', ko: '오프라인' },
};

export const REPORT_ALERT_STATUSES: Record<string, ReportWords> = {
  untreated: { en: 'Untreated', zh: '未处理', ko: '미처리' },
  preProcess: { en: 'Pre-processed', zh: '预处理', ko: '사전 처리' },
  processed: { en: 'Processed', zh: '已处理', ko: '처리 완료' },
};

export const REPORT_ALERT_LEVELS: Record<number, ReportWords> = {
  1: { en: 'Level 1 (blue)', zh: '一级（蓝）', ko: '1등급 (파랑)' },
  2: { en: 'Level 2 (yellow)', zh: '二级（黄）', ko: '2등급 (노랑)' },
  3: { en: 'Level 3 (orange)', zh: '三级（橙）', ko: '3등급 (주황)' },
  4: { en: 'Level 4 (red)', zh: '四级（红）', ko: '4등급 (빨강)' },
};

/** The word of a code in the language; the code itself when unknown. */
export function reportWord(m: Record<string | number, ReportWords>, code: string | number, lang: Language): string {
  return m[code]?.[lang] ?? String(code);
}
