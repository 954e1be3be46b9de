// The few words a renderer writes itself (everything else comes translated in the document).
export type ReportLanguage = 'en' | 'zh' | 'ko';

export interface RendererLabels {
  timeZone: string;
  generatedAt: string;
  /** "Page {page} / {pages}". */
  page: string;
  /** Shown for an image that could not be read. */
  missingImage: string;
  continued: string;
}

const LABELS: Record<ReportLanguage, RendererLabels> = {
  en: {
    timeZone: 'Time zone',
    generatedAt: 'Generated',
    page: 'Page {page} / {pages}',
    missingImage: 'Image not available',
    continued: '(continued)',
  },
  zh: {
    timeZone: '时区',
    generatedAt: '生成时间',
    page: '第 {page} / {pages} 页',
    missingImage: '图片不可用',
    continued: '（续）',
  },
  ko: {
    timeZone: '시간대',
    generatedAt: '생성 시각',
    page: '{page} / {pages} 페이지',
    missingImage: '이미지를 사용할 수 없음',
    continued: '(계속)',
  },
};

export function rendererLabels(language: ReportLanguage): RendererLabels {
  return LABELS[language];
}
