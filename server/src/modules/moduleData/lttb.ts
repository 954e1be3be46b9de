/**
 * Largest-Triangle-Three-Buckets downsampling (Steinarsson 2013) that always keeps the first, the last,
 * the global minimum and the global maximum point. Pure.
 */

/**
 * Indices (ascending) of at most `maxPoints` points of the series (xs ascending) to draw. A series that
 * already fits answers every index.
 */
export function lttbIndices(xs: ArrayLike<number>, ys: ArrayLike<number>, maxPoints: number): number[] {
  const n = xs.length;
  if (maxPoints < 3) throw new Error('maxPoints must be at least 3');
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  let iMin = 0;
  let iMax = 0;
  for (let i = 1; i < n; i++) {
    if (ys[i]! < ys[iMin]!) iMin = i;
    if (ys[i]! > ys[iMax]!) iMax = i;
  }
  // Room for the extremes: LTTB picks threshold points, then min and max are added when missing.
  const threshold = Math.max(3, maxPoints - 2);
  const picked: number[] = [0];
  const every = (n - 2) / (threshold - 2);
  let a = 0;
  for (let i = 0; i < threshold - 2; i++) {
    // Average of the next bucket.
    const nextStart = Math.floor((i + 1) * every) + 1;
    const nextEnd = Math.min(Math.floor((i + 2) * every) + 1, n);
    let avgX = 0;
    let avgY = 0;
    for (let j = nextStart; j < nextEnd; j++) {
      avgX += xs[j]!;
      avgY += ys[j]!;
    }
    const len = nextEnd - nextStart;
    avgX /= len;
    avgY /= len;
    // The point of this bucket making the largest triangle with the previous pick and the next average.
    const start = Math.floor(i * every) + 1;
    const end = Math.floor((i + 1) * every) + 1;
    const ax = xs[a]!;
    const ay = ys[a]!;
    let best = -1;
    let bestIdx = start;
    for (let j = start; j < end; j++) {
      const area = Math.abs((ax - avgX) * (ys[j]! - ay) - (ax - xs[j]!) * (avgY - ay));
      if (area > best) {
        best = area;
        bestIdx = j;
      }
    }
    picked.push(bestIdx);
    a = bestIdx;
  }
  picked.push(n - 1);
  const set = new Set(picked);
  set.add(iMin);
  set.add(iMax);
  return [...set].sort((p, q) => p - q);
}
