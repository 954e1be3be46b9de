// The font a PDF embeds (as a subset of the glyphs used, so the file opens with Chinese and Korean on a machine
// without any font): Noto Sans CJK, which covers Latin, Simplified Chinese and Hangul. REPORT_FONT_DIR names a
// folder holding NotoSansCJK-Regular.ttc and NotoSansCJK-Bold.ttc; else the usual system folders are looked at.
import fs from 'node:fs';
import path from 'node:path';
import type { ReportLanguage } from './labels.ts';

const DIRS = [
  process.env.REPORT_FONT_DIR,
  '/usr/share/fonts/opentype/noto',
  '/usr/share/fonts/noto-cjk',
  '/usr/share/fonts/google-noto-cjk',
  '/usr/local/share/fonts',
].filter((d): d is string => !!d);

export interface ReportFonts {
  regular: Buffer;
  bold: Buffer;
  /** Face inside the collection for the language (its CJK glyph forms: SC for zh and en, KR for ko). */
  face(language: ReportLanguage, bold: boolean): string;
}

let cached: ReportFonts | null | undefined;

/** The CJK font collection, read once; null when none is installed (the PDF then falls back to Helvetica). */
export function reportFonts(): ReportFonts | null {
  if (cached !== undefined) return cached;
  cached = null;
  for (const dir of DIRS) {
    const regular = path.join(dir, 'NotoSansCJK-Regular.ttc');
    const bold = path.join(dir, 'NotoSansCJK-Bold.ttc');
    if (!fs.existsSync(regular)) continue;
    const r = fs.readFileSync(regular);
    const b = fs.existsSync(bold) ? fs.readFileSync(bold) : r;
    cached = {
      regular: r,
      bold: b,
      face: (language, isBold) =>
        `NotoSansCJK${language === 'ko' ? 'kr' : 'sc'}-${isBold && b !== r ? 'Bold' : 'Regular'}`,
    };
    break;
  }
  return cached;
}

/** Paths of the CJK font files (for a rasteriser that reads files); empty when none is installed. */
export function reportFontFiles(): string[] {
  for (const dir of DIRS) {
    const regular = path.join(dir, 'NotoSansCJK-Regular.ttc');
    if (!fs.existsSync(regular)) continue;
    const bold = path.join(dir, 'NotoSansCJK-Bold.ttc');
    return fs.existsSync(bold) ? [regular, bold] : [regular];
  }
  return [];
}
