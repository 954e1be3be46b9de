// Vibration limit curves (issue 17, vibration report): allowable peak particle velocity (PPV, mm/s) against the
// dominant frequency (Hz), as data with their source. Pure, no I/O: the server judges events with them and the
// report draws them beside the events on a log-log chart.
//
// A curve is a list of frequency pieces. A piece covers fromHz < f <= toHz (the first piece also covers every
// f <= its toHz, the last one with toHz null every higher f): GB 6722's bands are "f <= 10 Hz, 10 < f <= 50 Hz,
// f > 50 Hz", so a dominant frequency of exactly 10 Hz belongs to the lower band. In a piece the allowable
// velocity is a constant, a straight line between its ends (DIN 4150-3), or a constant displacement
// (v = 2·π·f·d, USBM RI 8507's low- and mid-frequency lines).
//
// A standard that gives a range (GB 6722: "0.15–0.45 cm/s" for one band) has a lower and an upper value: a PPV
// up to the lower value passes, one above the upper value exceeds, one in between is "in the standard's range"
// (the standard leaves the choice inside the range to the engineer: distance, structure state, blast count).
// DIN 4150-3 and USBM RI 8507 give one value (lower = upper).
import type { MonitorTypeLabels as Labels } from '../monitorTypes/catalogue.ts';

/** The allowable velocity over one piece: mm/s, a line from→to in mm/s, or a displacement in mm. */
export type LimitLaw = { mmps: number } | { linear: [number, number] } | { displacementMm: number };

export interface LimitPiece {
  fromHz: number;
  /** null: every higher frequency. */
  toHz: number | null;
  lower: LimitLaw;
  upper: LimitLaw;
}

export interface LimitCurve {
  /** Stable id (query parameter `curve`). */
  id: string;
  standard: 'GB6722' | 'DIN4150' | 'USBM8507';
  label: Labels;
  source: string;
  pieces: readonly LimitPiece[];
}

const INCH = 25.4;
const band = (a: [number, number], b: [number, number], c: [number, number]): LimitPiece[] => [
  // GB 6722-2014 table 13 gives cm/s; ×10 to mm/s.
  { fromHz: 0, toHz: 10, lower: { mmps: a[0] * 10 }, upper: { mmps: a[1] * 10 } },
  { fromHz: 10, toHz: 50, lower: { mmps: b[0] * 10 }, upper: { mmps: b[1] * 10 } },
  { fromHz: 50, toHz: null, lower: { mmps: c[0] * 10 }, upper: { mmps: c[1] * 10 } },
];
const GB_SOURCE = 'GB 6722-2014 Safety regulations for blasting, §13.2, table 13 (cm/s converted to mm/s)';
const gb = (id: string, en: string, zh: string, ko: string, pieces: LimitPiece[]): LimitCurve => ({
  id: `gb6722-${id}`,
  standard: 'GB6722',
  label: { en: `GB 6722: ${en}`, zh: `GB 6722：${zh}`, ko: `GB 6722: ${ko}` },
  source: GB_SOURCE,
  pieces,
});

const one = (law: LimitLaw) => ({ lower: law, upper: law });
const din = (line: 1 | 2 | 3, en: string, zh: string, ko: string, v: [number, number, number, number]): LimitCurve => ({
  id: `din4150-${line}`,
  standard: 'DIN4150',
  label: {
    en: `DIN 4150-3 line ${line}: ${en}`,
    zh: `DIN 4150-3 第${line}类：${zh}`,
    ko: `DIN 4150-3 ${line}행: ${ko}`,
  },
  source:
    'DIN 4150-3:2016-12 table 1, short-term vibration at the foundation; linear between 10, 50 and 100 Hz; below 1 Hz the 1 Hz value, above 100 Hz the 100 Hz value',
  pieces: [
    { fromHz: 0, toHz: 10, ...one({ mmps: v[0] }) },
    { fromHz: 10, toHz: 50, ...one({ linear: [v[1], v[2]] }) },
    { fromHz: 50, toHz: 100, ...one({ linear: [v[2], v[3]] }) },
    { fromHz: 100, toHz: null, ...one({ mmps: v[3] }) },
  ],
});

/**
 * USBM RI 8507 (Siskind et al. 1980) appendix B, figure B-1, alternative blasting level criteria: a constant
 * displacement of 0.030 in at low frequencies, 0.75 in/s (drywall) or 0.50 in/s (plaster), a constant
 * displacement of 0.008 in, and 2.0 in/s from about 40 Hz. The break frequencies follow from v = 2·π·f·d.
 */
function usbm(id: string, en: string, zh: string, ko: string, plateauIn: number): LimitCurve {
  const f = (vIn: number, dIn: number) => vIn / (2 * Math.PI * dIn);
  const f1 = f(plateauIn, 0.03);
  const f2 = f(plateauIn, 0.008);
  const f3 = f(2, 0.008);
  return {
    id: `usbm8507-${id}`,
    standard: 'USBM8507',
    label: { en: `USBM RI 8507: ${en}`, zh: `USBM RI 8507：${zh}`, ko: `USBM RI 8507: ${ko}` },
    source:
      'USBM RI 8507 (1980) appendix B figure B-1: 0.030 in displacement, then 0.75 in/s drywall or 0.50 in/s plaster, 0.008 in displacement, 2.0 in/s above about 40 Hz (1 in = 25.4 mm)',
    pieces: [
      { fromHz: 0, toHz: f1, ...one({ displacementMm: 0.03 * INCH }) },
      { fromHz: f1, toHz: f2, ...one({ mmps: plateauIn * INCH }) },
      { fromHz: f2, toHz: f3, ...one({ displacementMm: 0.008 * INCH }) },
      { fromHz: f3, toHz: null, ...one({ mmps: 2 * INCH }) },
    ],
  };
}

export const LIMIT_CURVES: readonly LimitCurve[] = [
  gb(
    'adobe',
    'adobe and rubble houses',
    '土窑洞、土坯房、毛石房屋',
    '토굴·흙벽돌·잡석 가옥',
    band([0.15, 0.45], [0.45, 0.9], [0.9, 1.5]),
  ),
  gb(
    'civil',
    'ordinary civil buildings',
    '一般民用建筑物',
    '일반 민용 건축물',
    band([1.5, 2.0], [2.0, 2.5], [2.5, 3.0]),
  ),
  gb(
    'industrial',
    'industrial and commercial buildings',
    '工业和商业建筑物',
    '산업·상업 건축물',
    band([2.5, 3.5], [3.5, 4.5], [4.2, 5.0]),
  ),
  gb(
    'historic',
    'historic buildings and monuments',
    '一般古建筑与古迹',
    '일반 고건축·유적',
    band([0.1, 0.2], [0.2, 0.3], [0.3, 0.5]),
  ),
  gb(
    'control',
    'control room equipment of running power stations',
    '运行中的水电站及发电厂中心控制室设备',
    '가동 중인 수력·발전소 중앙제어실 설비',
    band([0.5, 0.6], [0.6, 0.7], [0.7, 0.9]),
  ),
  gb('hydraulicTunnel', 'hydraulic tunnels', '水工隧洞', '수공 터널', band([7, 8], [8, 10], [10, 15])),
  gb('trafficTunnel', 'traffic tunnels', '交通隧道', '교통 터널', band([10, 12], [12, 15], [15, 20])),
  gb('mineRoadway', 'mine roadways', '矿山巷道', '광산 갱도', band([15, 18], [18, 25], [20, 30])),
  gb(
    'rockSlope',
    'permanent high rock slopes',
    '永久性岩石高边坡',
    '영구 고암반 사면',
    band([5, 9], [8, 12], [10, 15]),
  ),
  gb(
    'concrete3',
    'new mass concrete, age 0–3 d',
    '新浇大体积混凝土（龄期初凝～3 d）',
    '신규 매스 콘크리트 (재령 0–3일)',
    band([1.5, 2.0], [2.0, 2.5], [2.5, 3.0]),
  ),
  gb(
    'concrete7',
    'new mass concrete, age 3–7 d',
    '新浇大体积混凝土（龄期 3～7 d）',
    '신규 매스 콘크리트 (재령 3–7일)',
    band([3.0, 4.0], [4.0, 5.0], [5.0, 7.0]),
  ),
  gb(
    'concrete28',
    'new mass concrete, age 7–28 d',
    '新浇大体积混凝土（龄期 7～28 d）',
    '신규 매스 콘크리트 (재령 7–28일)',
    band([7.0, 8.0], [8.0, 10.0], [10.0, 12.0]),
  ),
  din(1, 'commercial and industrial buildings', '商业和工业建筑', '상업·산업 건물', [20, 20, 40, 50]),
  din(2, 'dwellings', '住宅', '주거 건물', [5, 5, 15, 20]),
  din(3, 'sensitive and listed structures', '敏感和受保护建筑', '민감·보호 구조물', [3, 3, 8, 10]),
  usbm('drywall', 'modern homes, drywall', '现代住宅（石膏板）', '현대 주택 (석고보드)', 0.75),
  usbm('plaster', 'older homes, plaster on lath', '老式住宅（板条抹灰）', '구식 주택 (졸대 회반죽)', 0.5),
];

export const LIMIT_CURVE_IDS = LIMIT_CURVES.map((c) => c.id) as [string, ...string[]];
export const DEFAULT_LIMIT_CURVE = 'gb6722-civil';

export function limitCurve(id: string): LimitCurve | undefined {
  return LIMIT_CURVES.find((c) => c.id === id);
}

function pieceOf(curve: LimitCurve, f: number): LimitPiece {
  const ps = curve.pieces;
  for (const p of ps) if (p.toHz === null || f <= p.toHz) return p;
  return ps[ps.length - 1]!;
}

function lawAt(law: LimitLaw, p: LimitPiece, f: number): number {
  if ('mmps' in law) return law.mmps;
  if ('displacementMm' in law) return 2 * Math.PI * f * law.displacementMm;
  const to = p.toHz ?? p.fromHz;
  if (to === p.fromHz) return law.linear[0];
  const x = Math.min(Math.max(f, p.fromHz), to);
  return law.linear[0] + ((law.linear[1] - law.linear[0]) * (x - p.fromHz)) / (to - p.fromHz);
}

/** The allowable PPV (mm/s) at frequency f: lower and upper value (equal for single-valued standards). */
export function allowableAt(curve: LimitCurve, f: number): { lower: number; upper: number } {
  const p = pieceOf(curve, f);
  return { lower: lawAt(p.lower, p, f), upper: lawAt(p.upper, p, f) };
}

export const VIBRATION_VERDICTS = ['pass', 'range', 'exceed', 'unknown'] as const;
export type VibrationVerdict = (typeof VIBRATION_VERDICTS)[number];

/**
 * A PPV (mm/s) at its dominant frequency (Hz) judged against a curve: pass (at or below the lower value),
 * range (above the lower, at or below the upper: the standard's range), exceed (above the upper), unknown (no
 * frequency: the curves depend on it).
 */
export function verdictOf(curve: LimitCurve, ppv: number, f: number | null): VibrationVerdict {
  if (f === null || !(f > 0)) return 'unknown';
  const a = allowableAt(curve, f);
  if (ppv <= a.lower) return 'pass';
  if (ppv <= a.upper) return 'range';
  return 'exceed';
}

/**
 * Points of a curve for a log-log chart from fMin to fMax Hz (both > 0): the piece ends, where a band steps
 * (GB 6722) twice at the same frequency, and intermediate points on displacement lines (straight on log-log
 * anyway; two points suffice). `which` picks the lower or upper values.
 */
export function curvePoints(curve: LimitCurve, which: 'lower' | 'upper', fMin = 1, fMax = 200): [number, number][] {
  const out: [number, number][] = [];
  for (const p of curve.pieces) {
    const a = Math.max(p.fromHz, fMin);
    const b = Math.min(p.toHz ?? fMax, fMax);
    if (b <= a && !(p.fromHz <= fMin && b === a)) continue;
    const law = p[which];
    out.push([a, lawAt(law, p, a)], [b, lawAt(law, p, b)]);
  }
  return out;
}

export const VIBRATION_VERDICT_LABELS: Record<VibrationVerdict, Labels> = {
  pass: { en: 'Within the limit', zh: '满足限值', ko: '허용치 이내' },
  range: { en: "Within the standard's range", zh: '处于标准范围内', ko: '기준 범위 내' },
  exceed: { en: 'Exceeds the limit', zh: '超过限值', ko: '허용치 초과' },
  unknown: { en: 'No frequency', zh: '无主频', ko: '주파수 없음' },
};
