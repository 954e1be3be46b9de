import { useEffect, useId, useRef, type ReactElement } from 'react';
import { WATER_POND } from '@geosentry/contract';

/** Points per wave path: smooth enough at 4K, cheap to rebuild every frame. */
const STEPS = 48;

/**
 * The water-pond gauge (spec §9: 3 waves, wave height 40, opacity 0.4, label `value%`): a round pond whose water
 * stands at `value` percent, three waves of different length and speed drifting across it. Our own SVG: the waves'
 * paths are rebuilt in a requestAnimationFrame loop (no React render per frame), which stops while the tab is hidden
 * and on unmount. `waveHeight` is the crest-to-trough height in px of a 200 px pond, scaled with the pond.
 */
export function WaterPond({
  value,
  size = 200,
  colour = '#3de7ff',
  waveNum = WATER_POND.waveNum,
  waveHeight = WATER_POND.waveHeight,
  waveOpacity = WATER_POND.waveOpacity,
  formatter = WATER_POND.formatter,
  testId,
}: {
  /** Percent, 0 to 100 (clamped for the water; the label shows the value as it is). */
  value: number | null;
  size?: number;
  colour?: string;
  waveNum?: number;
  waveHeight?: number;
  waveOpacity?: number;
  formatter?: string;
  testId?: string;
}): ReactElement {
  const clip = `bs-pond-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const paths = useRef<Array<SVGPathElement | null>>([]);
  const level = useRef(0);
  level.current = value === null ? 0 : Math.max(0, Math.min(100, value));

  useEffect(() => {
    let frame = 0;
    let start = 0;
    const amp = ((waveHeight / 2) * size) / 200;
    const draw = (now: number): void => {
      if (!start) start = now;
      const t = (now - start) / 1000;
      // The crest reaches the top at 100 % and the trough the bottom at 0 %: the level keeps its meaning.
      const base = size - (level.current / 100) * size;
      const pct = level.current;
      const a = pct <= 0 || pct >= 100 ? 0 : Math.min(amp, base * 0.9, (size - base) * 0.9);
      for (let w = 0; w < paths.current.length; w++) {
        const p = paths.current[w];
        if (!p) continue;
        const length = size * (0.9 + w * 0.35);
        const speed = 0.35 + w * 0.18;
        const phase = t * speed * Math.PI * 2 + w * 1.7;
        let d = `M0 ${size} L0 ${(base + a * Math.sin(phase)).toFixed(1)}`;
        for (let i = 1; i <= STEPS; i++) {
          const x = (i / STEPS) * size;
          const y = base + a * Math.sin(phase + (x / length) * Math.PI * 2);
          d += ` L${x.toFixed(1)} ${y.toFixed(1)}`;
        }
        p.setAttribute('d', `${d} L${size} ${size} Z`);
      }
      frame = document.hidden ? 0 : requestAnimationFrame(draw);
    };
    const onVisibility = (): void => {
      if (!document.hidden && !frame) frame = requestAnimationFrame(draw);
    };
    frame = document.hidden ? 0 : requestAnimationFrame(draw);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelAnimationFrame(frame);
      frame = 0;
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [size, waveHeight, waveNum]);

  const r = size / 2;
  const label = value === null ? '--' : formatter.replace('{value}', String(Math.round(value * 10) / 10));
  return (
    <svg
      className="bs-pond"
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      data-testid={testId}
      data-value={value ?? ''}
    >
      <defs>
        <clipPath id={clip}>
          <circle cx={r} cy={r} r={r - 6} />
        </clipPath>
      </defs>
      <circle cx={r} cy={r} r={r - 2} fill="none" stroke={colour} strokeWidth={3} opacity={0.9} />
      <circle cx={r} cy={r} r={r - 6} fill="rgba(0, 40, 80, 0.55)" />
      <g clipPath={`url(#${clip})`}>
        {Array.from({ length: waveNum }, (_, i) => (
          <path
            key={i}
            ref={(el) => {
              paths.current[i] = el;
            }}
            fill={colour}
            fillOpacity={waveOpacity}
          />
        ))}
      </g>
      <text x={r} y={r} textAnchor="middle" dominantBaseline="central" className="bs-pond-label">
        {label}
      </text>
    </svg>
  );
}
