// A chart as a PNG (Word documents cannot show SVG alone): the SVG chartSvg writes, rasterised by resvg with the
// report font (Noto Sans CJK, so Chinese and Korean labels draw on a machine without system fonts).
import { Resvg } from '@resvg/resvg-js';
import type { ReportChart } from '@geosentry/contract';
import { chartSvg } from './chart.ts';
import { reportFontFiles } from './fonts.ts';

/** The chart drawn at `scale` × its size in points (2: sharp when printed). */
export function chartPng(chart: ReportChart, timeZone: string, width = 640, height = 300, scale = 2): Buffer {
  const files = reportFontFiles();
  const svg = chartSvg(chart, timeZone, width, height);
  const r = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    font: {
      loadSystemFonts: files.length === 0,
      fontFiles: files,
      defaultFontFamily: 'Noto Sans CJK SC',
    },
    background: '#ffffff',
  });
  return r.render().asPng();
}
