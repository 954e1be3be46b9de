import type { ReactElement } from 'react';

/** Decorative scene for the login page: terrain contours, a monitored slope, sensors and a gateway. */
export function LoginIllustration(): ReactElement {
  return (
    <svg className="gs-login-art" viewBox="0 0 560 360" role="presentation" aria-hidden="true">
      <defs>
        <linearGradient id="gs-slope" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#4f8dff" stopOpacity="0.55" />
          <stop offset="1" stopColor="#1d4fb8" stopOpacity="0.15" />
        </linearGradient>
        <linearGradient id="gs-slope-back" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#8fb6ff" stopOpacity="0.28" />
          <stop offset="1" stopColor="#8fb6ff" stopOpacity="0.04" />
        </linearGradient>
        <radialGradient id="gs-pulse">
          <stop offset="0" stopColor="#ffd666" stopOpacity="0.9" />
          <stop offset="1" stopColor="#ffd666" stopOpacity="0" />
        </radialGradient>
      </defs>
      {/* contour lines */}
      <g fill="none" stroke="#9cc0ff" strokeOpacity="0.16" strokeWidth="1.2">
        <path d="M-10 300 C 90 250, 170 270, 260 220 S 430 150, 570 170" />
        <path d="M-10 270 C 80 220, 170 240, 250 190 S 420 110, 570 130" />
        <path d="M-10 240 C 70 190, 160 205, 240 160 S 410 75, 570 92" />
        <path d="M-10 210 C 60 160, 150 170, 230 130 S 400 45, 570 55" />
        <path d="M-10 330 C 100 290, 190 300, 280 260 S 440 200, 570 210" />
      </g>
      {/* back ridge and monitored slope */}
      <path
        d="M0 300 L110 170 L170 215 L260 110 L350 200 L420 150 L560 290 L560 360 L0 360 Z"
        fill="url(#gs-slope-back)"
      />
      <path d="M0 360 L0 320 L140 230 L250 160 L330 205 L430 250 L560 300 L560 360 Z" fill="url(#gs-slope)" />
      <path d="M140 230 L250 160 L330 205" fill="none" stroke="#cfe0ff" strokeOpacity="0.55" strokeWidth="2" />
      {/* reservoir */}
      <path d="M400 318 C 440 300, 500 300, 560 312 L560 360 L380 360 Z" fill="#69b1ff" fillOpacity="0.35" />
      <path d="M410 326 C 450 314, 500 314, 550 322" stroke="#e6f0ff" strokeOpacity="0.5" fill="none" />
      {/* sensor links */}
      <g stroke="#ffffff" strokeOpacity="0.45" strokeDasharray="4 5" fill="none">
        <path d="M190 200 L290 120" />
        <path d="M250 160 L290 120" />
        <path d="M318 198 L290 120" />
        <path d="M455 312 L290 120" />
      </g>
      {/* gateway mast */}
      <g stroke="#ffffff" strokeWidth="2.2" strokeLinecap="round">
        <path d="M290 120 L290 78" />
        <path d="M280 132 L290 120 L300 132" />
      </g>
      <g fill="none" stroke="#ffffff" strokeOpacity="0.7" strokeWidth="1.6" strokeLinecap="round">
        <path d="M278 72 A 16 16 0 0 1 302 72" />
        <path d="M270 64 A 28 28 0 0 1 310 64" strokeOpacity="0.45" />
      </g>
      <circle cx="290" cy="78" r="4" fill="#ffffff" />
      {/* sensors */}
      {[
        [190, 200],
        [250, 160],
        [318, 198],
        [455, 312],
      ].map(([x, y]) => (
        <g key={`${x}-${y}`}>
          <circle cx={x} cy={y} r="16" fill="url(#gs-pulse)" />
          <circle cx={x} cy={y} r="5" fill="#ffd666" stroke="#fff" strokeWidth="1.5" />
        </g>
      ))}
      {/* a reading card */}
      <g transform="translate(360 60)">
        <rect width="160" height="76" rx="10" fill="#ffffff" fillOpacity="0.12" stroke="#ffffff" strokeOpacity="0.25" />
        <path
          d="M14 56 L38 48 L58 52 L80 36 L102 40 L124 22 L146 28"
          fill="none"
          stroke="#ffd666"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <rect x="14" y="12" width="46" height="6" rx="3" fill="#ffffff" fillOpacity="0.55" />
        <rect x="14" y="64" width="132" height="2" rx="1" fill="#ffffff" fillOpacity="0.2" />
      </g>
    </svg>
  );
}
