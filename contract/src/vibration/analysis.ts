// Vibration event analysis (issue 17): peak particle velocity per axis, the vector sum, dominant frequency.
// Pure, no I/O, no dependency: the server runs it on a device's readings; tests run it on synthetic waves.
//
// Decisions (docs: contract/src/vibration/README.md):
// - PPV of an axis: the largest |v| of its samples. Vector sum: the largest sqrt(x² + y² + z²) over the samples
//   taken at the same time (the peak of the resultant, never the sum of the three peaks, which overstates it
//   when the axes peak at different times).
// - Dominant frequency: FFT of the axis' samples when the event is a waveform (at least FFT_MIN_SAMPLES samples
//   at a regular interval, the spread of the intervals within 5 %): mean removed, Hann window, zero padded to the
//   next power of two at least twice the length (finer bins), radix-2 Cooley–Tukey, the largest bin above DC
//   refined by parabolic interpolation of the log magnitudes. Otherwise (a logger that sends one summary per
//   event: a peak and its own frequency, as the demo's do) the frequency the device reported with its peak.
import type { VibrationVerdict } from './curves.ts';

export const FFT_MIN_SAMPLES = 16;

/** In-place radix-2 FFT of (re, im); the length must be a power of two. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if (n !== im.length || (n & (n - 1)) !== 0) throw new Error('fft: length must be a power of two');
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
  }
}

/** The dominant frequency (Hz) of samples taken every 1/rateHz s; null for fewer than 4 samples or a flat signal. */
export function dominantFrequency(samples: ArrayLike<number>, rateHz: number): number | null {
  const m = samples.length;
  if (m < 4 || !(rateHz > 0)) return null;
  let mean = 0;
  for (let i = 0; i < m; i++) mean += samples[i]!;
  mean /= m;
  let n = 1;
  while (n < 2 * m) n <<= 1;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < m; i++) {
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (m - 1));
    re[i] = (samples[i]! - mean) * w;
  }
  fft(re, im);
  const mag = (k: number) => Math.hypot(re[k]!, im[k]!);
  let best = 1;
  for (let k = 2; k < n / 2; k++) if (mag(k) > mag(best)) best = k;
  const peak = mag(best);
  if (!(peak > 1e-12)) return null;
  let delta = 0;
  if (best > 1 && best < n / 2 - 1) {
    const a = Math.log(mag(best - 1) + 1e-300);
    const b = Math.log(peak);
    const c = Math.log(mag(best + 1) + 1e-300);
    const den = a - 2 * b + c;
    if (den < 0) delta = (0.5 * (a - c)) / den;
  }
  return ((best + delta) * rateHz) / n;
}

/** One sample of an event: epoch ms, the axes' velocities (mm/s) and the frequency a logger reported, if any. */
export interface VibrationSample {
  t: number;
  v: Record<string, number>;
  frequency?: number | undefined;
}

export interface AxisResult {
  axis: string;
  /** Peak particle velocity, mm/s (largest |v|). */
  ppv: number;
  /** Time of the peak, epoch ms. */
  at: number;
  /** Dominant frequency, Hz, or null when neither a waveform nor a reported frequency gives one. */
  frequency: number | null;
  frequencyMethod: 'fft' | 'device' | null;
}

export interface EventResult {
  from: number;
  to: number;
  samples: number;
  axes: AxisResult[];
  /** Largest resultant sqrt(Σ v²) over the samples, mm/s. */
  vectorSum: number;
  vectorSumAt: number;
  /** The axis with the largest PPV: its PPV and frequency are judged against the curve. */
  governing: AxisResult;
}

/** True when the samples are a waveform: enough of them at a regular interval (spread within 5 %). */
export function regularRate(ts: readonly number[]): number | null {
  if (ts.length < FFT_MIN_SAMPLES) return null;
  let min = Infinity;
  let max = 0;
  for (let i = 1; i < ts.length; i++) {
    const d = ts[i]! - ts[i - 1]!;
    if (d < min) min = d;
    if (d > max) max = d;
  }
  if (!(min > 0) || max > min * 1.05) return null;
  return 1000 / ((ts[ts.length - 1]! - ts[0]!) / (ts.length - 1));
}

/** Analyses one event's samples (time order) over the given axes. */
export function analyseEvent(samples: readonly VibrationSample[], axes: readonly string[]): EventResult {
  const ts = samples.map((s) => s.t);
  const rate = regularRate(ts);
  const results: AxisResult[] = axes.map((axis) => {
    let ppv = 0;
    let at = samples[0]?.t ?? 0;
    let peakFreq: number | undefined;
    for (const s of samples) {
      const a = Math.abs(s.v[axis] ?? 0);
      if (a > ppv) {
        ppv = a;
        at = s.t;
        peakFreq = s.frequency;
      }
    }
    if (rate !== null) {
      const f = dominantFrequency(
        samples.map((s) => s.v[axis] ?? 0),
        rate,
      );
      if (f !== null) return { axis, ppv, at, frequency: f, frequencyMethod: 'fft' };
    }
    if (peakFreq !== undefined && peakFreq > 0)
      return { axis, ppv, at, frequency: peakFreq, frequencyMethod: 'device' };
    return { axis, ppv, at, frequency: null, frequencyMethod: null };
  });
  let vectorSum = 0;
  let vectorSumAt = samples[0]?.t ?? 0;
  for (const s of samples) {
    let q = 0;
    for (const axis of axes) q += (s.v[axis] ?? 0) ** 2;
    const r = Math.sqrt(q);
    if (r > vectorSum) {
      vectorSum = r;
      vectorSumAt = s.t;
    }
  }
  let governing = results[0]!;
  for (const r of results) if (r.ppv > governing.ppv) governing = r;
  return {
    from: ts[0] ?? 0,
    to: ts[ts.length - 1] ?? 0,
    samples: samples.length,
    axes: results,
    vectorSum,
    vectorSumAt,
    governing,
  };
}

/**
 * Splits a device's samples (time order) into events: a run of samples whose largest axis |v| reaches the
 * trigger level, together with the samples between them, where consecutive triggering samples are at most
 * gapMs apart; the event also takes the samples up to gapMs before its first and after its last trigger (the
 * rise and decay of a waveform). At most maxEvents events (the largest first is not needed: time order).
 */
export function splitEvents(
  samples: readonly VibrationSample[],
  axes: readonly string[],
  triggerMmps: number,
  gapMs: number,
  maxEvents = 500,
): VibrationSample[][] {
  const hot: number[] = [];
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    if (axes.some((a) => Math.abs(s.v[a] ?? 0) >= triggerMmps)) hot.push(i);
  }
  const events: VibrationSample[][] = [];
  let k = 0;
  while (k < hot.length && events.length < maxEvents) {
    let last = k;
    while (last + 1 < hot.length && samples[hot[last + 1]!]!.t - samples[hot[last]!]!.t <= gapMs) last++;
    const t0 = samples[hot[k]!]!.t - gapMs;
    const t1 = samples[hot[last]!]!.t + gapMs;
    let i = hot[k]!;
    while (i > 0 && samples[i - 1]!.t >= t0 && (events.length === 0 || !eventHas(events, samples[i - 1]!))) i--;
    let j = hot[last]!;
    while (
      j + 1 < samples.length &&
      samples[j + 1]!.t <= t1 &&
      !(hot[last + 1] !== undefined && j + 1 >= hot[last + 1]!)
    )
      j++;
    events.push(samples.slice(i, j + 1));
    k = last + 1;
  }
  return events;
}

function eventHas(events: VibrationSample[][], s: VibrationSample): boolean {
  const prev = events[events.length - 1]!;
  return prev.length > 0 && prev[prev.length - 1]!.t >= s.t;
}

/** v rounded half away from zero to d decimals, on its shortest decimal form (as an engineer rounds by hand). */
export function roundDecimal(v: number, d: number): number {
  if (!Number.isFinite(v)) return v;
  const sign = v < 0 ? -1 : 1;
  const text = String(Math.abs(v));
  const r = text.includes('e')
    ? Math.round(Math.abs(v) * 10 ** d) / 10 ** d
    : Number(`${Math.round(Number(`${text}e${d}`))}e-${d}`);
  return r === 0 ? 0 : sign * r;
}

export type { VibrationVerdict };
