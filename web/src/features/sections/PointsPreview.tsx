import { theme } from 'antd';

/**
 * A small drawing of points: the upstream face (pixels, y down) or a capacity curve (x right, y up).
 * Purely a preview; nothing is edited here.
 */
export function PointsPreview({
  points,
  yUp = false,
  closed = false,
  height = 220,
  label,
}: {
  points: { x: number; y: number }[];
  yUp?: boolean;
  closed?: boolean;
  height?: number;
  label: string;
}) {
  const { token } = theme.useToken();
  const W = 400;
  const H = height;
  const pad = 24;
  if (points.length === 0)
    return (
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" height={H} role="img" aria-label={label}>
        <rect x={0} y={0} width={W} height={H} fill={token.colorFillQuaternary} rx={6} />
      </svg>
    );
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const sx = (W - 2 * pad) / (x1 - x0 || 1);
  const sy = (H - 2 * pad) / (y1 - y0 || 1);
  // Pixels keep their aspect ratio; a curve stretches to fill the box.
  const kx = yUp ? sx : Math.min(sx, sy);
  const ky = yUp ? sy : kx;
  const px = (x: number) => pad + (x - x0) * kx;
  const py = (y: number) => (yUp ? H - pad - (y - y0) * ky : pad + (y - y0) * ky);
  const path = points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" height={H} role="img" aria-label={label}>
      <rect x={0} y={0} width={W} height={H} fill={token.colorFillQuaternary} rx={6} />
      {closed ? (
        <polygon points={path} fill={token.colorPrimaryBg} stroke={token.colorPrimary} strokeWidth={2} />
      ) : (
        <polyline points={path} fill="none" stroke={token.colorPrimary} strokeWidth={2} />
      )}
      {points.map((p, i) => (
        <g key={i}>
          <circle cx={px(p.x)} cy={py(p.y)} r={4} fill={token.colorPrimary} />
          <text x={px(p.x) + 6} y={py(p.y) - 6} fontSize={11} fill={token.colorTextSecondary}>
            {i + 1}
          </text>
        </g>
      ))}
    </svg>
  );
}
