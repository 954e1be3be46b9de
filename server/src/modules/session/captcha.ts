import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * The identifying-code image: a PNG raster drawn on the server, so the answer is only in the pixels
 * (an SVG's paths named each glyph's outline, and a program read them back). Each glyph is a stroke
 * drawing, placed with its own scale, rotation, shear and jitter, bent by a wave over the whole image,
 * drawn with anti-aliased strokes of varying width and colour, crossed by interference curves, over a
 * mottled background with speckle noise. Pure JavaScript (zlib + a PNG writer), no native code.
 */

export const CAPTCHA_WIDTH = 180;
export const CAPTCHA_HEIGHT = 60;

type Pt = [number, number];
type Stroke = Pt[];

/** Points of an elliptic arc (degrees; y points down, so 90 is the bottom). */
function arc(cx: number, cy: number, rx: number, ry: number, a0: number, a1: number): Stroke {
  const n = Math.max(6, Math.ceil(Math.abs(a1 - a0) / 12));
  const out: Stroke = [];
  for (let i = 0; i <= n; i++) {
    const a = ((a0 + ((a1 - a0) * i) / n) * Math.PI) / 180;
    out.push([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  }
  return out;
}
const path = (...parts: Stroke[]): Stroke => parts.flat();

/** Stroke drawings of the alphabet in a 10 x 14 box. */
const GLYPHS: Record<string, Stroke[]> = {
  A: [
    [
      [0, 14],
      [5, 0],
      [10, 14],
    ],
    [
      [2, 9],
      [8, 9],
    ],
  ],
  B: [
    path(
      [
        [0, 14],
        [0, 0],
        [5.5, 0],
      ],
      arc(5.5, 3.5, 3.8, 3.5, -90, 90),
      [[0, 7]],
    ),
    path([[5.5, 7]], arc(6, 10.5, 4, 3.5, -90, 90), [[0, 14]]),
  ],
  C: [arc(5.5, 7, 5, 7, -40, -320)],
  D: [
    path(
      [
        [0, 0],
        [0, 14],
        [4, 14],
      ],
      arc(4, 7, 6, 7, 90, -90),
      [[0, 0]],
    ),
  ],
  E: [
    [
      [10, 0],
      [0, 0],
      [0, 14],
      [10, 14],
    ],
    [
      [0, 7],
      [7, 7],
    ],
  ],
  F: [
    [
      [10, 0],
      [0, 0],
      [0, 14],
    ],
    [
      [0, 7],
      [7, 7],
    ],
  ],
  G: [
    path(arc(5.5, 7, 5, 7, -40, -330), [
      [9.8, 8],
      [6, 8],
    ]),
  ],
  H: [
    [
      [0, 0],
      [0, 14],
    ],
    [
      [10, 0],
      [10, 14],
    ],
    [
      [0, 7],
      [10, 7],
    ],
  ],
  J: [path([[8, 0]], arc(4, 10, 4, 4, 0, 180))],
  K: [
    [
      [0, 0],
      [0, 14],
    ],
    [
      [10, 0],
      [0, 8.5],
    ],
    [
      [3.5, 5.5],
      [10, 14],
    ],
  ],
  M: [
    [
      [0, 14],
      [0, 0],
      [5, 8],
      [10, 0],
      [10, 14],
    ],
  ],
  N: [
    [
      [0, 14],
      [0, 0],
      [10, 14],
      [10, 0],
    ],
  ],
  P: [
    path(
      [
        [0, 14],
        [0, 0],
        [6, 0],
      ],
      arc(6, 3.75, 4, 3.75, -90, 90),
      [[0, 7.5]],
    ),
  ],
  Q: [
    arc(5, 7, 5, 7, 0, 360),
    [
      [6, 10],
      [10.5, 14.5],
    ],
  ],
  R: [
    path(
      [
        [0, 14],
        [0, 0],
        [6, 0],
      ],
      arc(6, 3.75, 4, 3.75, -90, 90),
      [[0, 7.5]],
    ),
    [
      [5, 7.5],
      [10, 14],
    ],
  ],
  S: [path(arc(5, 3.5, 4.6, 3.5, -20, -270), arc(5, 10.5, 4.8, 3.5, -90, 160))],
  T: [
    [
      [0, 0],
      [10, 0],
    ],
    [
      [5, 0],
      [5, 14],
    ],
  ],
  U: [path([[0, 0]], arc(5, 9.5, 5, 4.5, 180, 0), [[10, 0]])],
  V: [
    [
      [0, 0],
      [5, 14],
      [10, 0],
    ],
  ],
  W: [
    [
      [0, 0],
      [2.5, 14],
      [5, 5],
      [7.5, 14],
      [10, 0],
    ],
  ],
  X: [
    [
      [0, 0],
      [10, 14],
    ],
    [
      [10, 0],
      [0, 14],
    ],
  ],
  Y: [
    [
      [0, 0],
      [5, 7],
      [10, 0],
    ],
    [
      [5, 7],
      [5, 14],
    ],
  ],
  Z: [
    [
      [0, 0],
      [10, 0],
      [0, 14],
      [10, 14],
    ],
  ],
  '2': [
    path(arc(5, 4, 4.6, 4, -160, 40), [
      [0, 14],
      [10, 14],
    ]),
  ],
  '3': [path(arc(5, 3.5, 4.5, 3.5, -150, 90), arc(5, 10.5, 4.8, 3.5, -90, 150))],
  '4': [
    [
      [7.5, 14],
      [7.5, 0],
      [0, 10],
      [10, 10],
    ],
  ],
  '5': [
    path(
      [
        [9.5, 0],
        [1, 0],
        [0.5, 6],
      ],
      arc(5, 9.5, 4.8, 4.5, -125, 150),
    ),
  ],
  '6': [path(arc(5, 7, 5, 7, -60, -180), arc(5, 10, 5, 4, 180, 540))],
  '7': [
    [
      [0, 0],
      [10, 0],
      [3.5, 14],
    ],
  ],
  '8': [arc(5, 3.5, 4, 3.5, 0, 360), arc(5, 10.5, 5, 3.5, 0, 360)],
  '9': [path(arc(5, 4, 5, 4, 0, 360), arc(5, 7, 5, 7, 0, 120))],
};

export const CAPTCHA_GLYPHS = Object.keys(GLYPHS).join('');

/** A fast PRNG seeded from the system's randomness (the drawing's noise; the answer itself uses crypto). */
function rng(): () => number {
  let s = crypto.randomBytes(4).readUInt32LE(0) | 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

class Canvas {
  readonly px: Float32Array;
  /** Coverage of the polyline being drawn (zero between polylines). */
  private readonly cover: Float32Array;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.px = new Float32Array(w * h * 3);
    this.cover = new Float32Array(w * h);
  }

  blend(x: number, y: number, c: readonly number[], a: number): void {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h || a <= 0) return;
    const i = (y * this.w + x) * 3;
    const k = Math.min(1, a);
    this.px[i] = this.px[i]! * (1 - k) + c[0]! * k;
    this.px[i + 1] = this.px[i + 1]! * (1 - k) + c[1]! * k;
    this.px[i + 2] = this.px[i + 2]! * (1 - k) + c[2]! * k;
  }

  /** An anti-aliased thick polyline: each pixel takes the coverage of its nearest segment. */
  polyline(pts: Pt[], width: number, c: readonly number[]): void {
    const r = width / 2;
    const cover = this.cover;
    const touched: number[] = [];
    for (let i = 1; i < pts.length; i++) {
      const [ax, ay] = pts[i - 1]!;
      const [bx, by] = pts[i]!;
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - r - 1));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by) - r - 1));
      const x1 = Math.min(this.w - 1, Math.ceil(Math.max(ax, bx) + r + 1));
      const y1 = Math.min(this.h - 1, Math.ceil(Math.max(ay, by) + r + 1));
      for (let py = y0; py <= y1; py++)
        for (let px = x0; px <= x1; px++) {
          const cx = px + 0.5;
          const cy = py + 0.5;
          const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((cx - ax) * dx + (cy - ay) * dy) / len2));
          const ex = ax + t * dx - cx;
          const ey = ay + t * dy - cy;
          const a = r + 0.5 - Math.sqrt(ex * ex + ey * ey);
          if (a <= 0) continue;
          const k = py * this.w + px;
          if (cover[k] === 0) touched.push(k);
          if (a > cover[k]!) cover[k] = a;
        }
    }
    for (const k of touched) {
      this.blend(k % this.w, Math.floor(k / this.w), c, cover[k]!);
      cover[k] = 0;
    }
  }
}

/** Splits a polyline so no segment is longer than `step` (the warp then bends it smoothly). */
function densify(pts: Pt[], step: number): Pt[] {
  const out: Pt[] = [pts[0]!];
  for (let i = 1; i < pts.length; i++) {
    const [ax, ay] = pts[i - 1]!;
    const [bx, by] = pts[i]!;
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / step));
    for (let k = 1; k <= n; k++) out.push([ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n]);
  }
  return out;
}

const hsl = (h: number, s: number, l: number): number[] => {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return [f(0), f(8), f(4)];
};

/** Draws `text` (characters of CAPTCHA_GLYPHS) and answers the PNG bytes. */
export function renderCaptcha(text: string, w = CAPTCHA_WIDTH, h = CAPTCHA_HEIGHT): Buffer {
  const rand = rng();
  const between = (a: number, b: number): number => a + (b - a) * rand();
  const cv = new Canvas(w, h);

  // Background: a light two-tone gradient, mottled by soft blobs.
  const bgA = hsl(between(0, 360), 0.35, 0.93);
  const bgB = hsl(between(0, 360), 0.35, 0.88);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const t = (x / w + y / h) / 2;
      const i = (y * w + x) * 3;
      for (let ch = 0; ch < 3; ch++) cv.px[i + ch] = bgA[ch]! * (1 - t) + bgB[ch]! * t;
    }
  for (let b = 0; b < 14; b++) {
    const bx = between(0, w);
    const by = between(0, h);
    const br = between(5, 16);
    const c = hsl(between(0, 360), 0.4, between(0.7, 0.85));
    for (let y = Math.floor(by - br); y <= by + br; y++)
      for (let x = Math.floor(bx - br); x <= bx + br; x++) {
        const d = Math.sqrt((x - bx) ** 2 + (y - by) ** 2) / br;
        if (d < 1) cv.blend(x, y, c, 0.35 * (1 - d));
      }
  }

  // The whole image is bent by two waves.
  const wa = between(1.5, 3);
  const wf = between(0.05, 0.09);
  const wp = between(0, Math.PI * 2);
  const va = between(1, 2.5);
  const vf = between(0.04, 0.08);
  const vp = between(0, Math.PI * 2);
  const warp = ([x, y]: Pt): Pt => [x + wa * Math.sin(y * wf + wp), y + va * Math.sin(x * vf + vp)];

  const glyphColours: number[][] = [];
  const slot = (w - 16) / text.length;
  let x = between(6, 12);
  for (const ch of text.toUpperCase()) {
    const strokes = GLYPHS[ch];
    if (!strokes) throw new Error(`no glyph for ${ch}`);
    const size = between(0.75, 1) * (h - 14);
    const sx = (size / 14) * between(0.8, 1.15);
    const sy = size / 14;
    const rot = between(-0.45, 0.45);
    const shear = between(-0.3, 0.3);
    const ox = x + between(-2, 2);
    const oy = between(4, h - 6 - size);
    const cos = Math.cos(rot);
    const sin = Math.sin(rot);
    const colour = hsl(between(0, 360), between(0.5, 0.8), between(0.22, 0.42));
    glyphColours.push(colour);
    const width = between(2.2, 3.6);
    const place = ([gx, gy]: Pt): Pt => {
      const lx = (gx - 5 + shear * (gy - 7)) * sx;
      const ly = (gy - 7) * sy;
      return warp([
        ox + 5 * sx + lx * cos - ly * sin + between(-0.35, 0.35),
        oy + 7 * sy + lx * sin + ly * cos + between(-0.35, 0.35),
      ]);
    };
    for (const s of strokes) cv.polyline(densify(s, 1.2).map(place), width, colour);
    x += slot * between(0.85, 1);
  }

  // Interference curves across the glyphs, in the glyphs' colours and weights.
  for (let k = 0; k < 3; k++) {
    const pts: Pt[] = [];
    const y0 = between(h * 0.2, h * 0.8);
    const amp = between(5, h * 0.35);
    const f = between(0.02, 0.06);
    const ph = between(0, Math.PI * 2);
    for (let px = -2; px <= w + 2; px += 2) pts.push([px, y0 + amp * Math.sin(px * f + ph)]);
    cv.polyline(pts, between(1.2, 2.4), glyphColours[Math.floor(rand() * glyphColours.length)]!);
  }
  // Short random strokes, the size of glyph parts.
  for (let k = 0; k < 8; k++) {
    const ax = between(0, w);
    const ay = between(0, h);
    const len = between(6, 14);
    const ang = between(0, Math.PI * 2);
    cv.polyline(
      densify(
        [
          [ax, ay],
          [ax + len * Math.cos(ang), ay + len * Math.sin(ang)],
        ],
        1.5,
      ).map(warp),
      between(1, 2),
      glyphColours[Math.floor(rand() * glyphColours.length)]!,
    );
  }
  // Speckle noise.
  for (let k = 0; k < (w * h) / 9; k++) {
    const c = rand() < 0.5 ? [40, 40, 60] : [255, 255, 255];
    cv.blend(Math.floor(rand() * w), Math.floor(rand() * h), c, between(0.15, 0.55));
  }

  return encodePng(cv.px, w, h);
}

/** A truecolour 8-bit PNG (IHDR, one IDAT, IEND), rows with the "sub" filter. */
export function encodePng(px: Float32Array, w: number, h: number): Buffer {
  const stride = w * 3 + 1;
  const raw = Buffer.alloc(stride * h);
  for (let y = 0; y < h; y++) {
    raw[y * stride] = 1; // sub
    for (let i = 0; i < w * 3; i++) {
      const v = Math.max(0, Math.min(255, Math.round(px[y * w * 3 + i]!)));
      const left = i >= 3 ? Math.max(0, Math.min(255, Math.round(px[y * w * 3 + i - 3]!))) : 0;
      raw[y * stride + 1 + i] = (v - left) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(type)), 0);
  return Buffer.concat([head, data, crc]);
}
