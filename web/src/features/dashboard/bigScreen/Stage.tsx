import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { BIG_SCREEN_SIZE } from '@geosentry/contract';

const { width: W, height: H } = BIG_SCREEN_SIZE;

interface Fit {
  scale: number;
  left: number;
  top: number;
}

/** The scale that fits the 1920×1080 design into the window, whole, and the offsets that centre it (letterbox). */
function fit(): Fit {
  const scale = Math.min(window.innerWidth / W, window.innerHeight / H);
  return {
    scale,
    left: Math.max(0, (window.innerWidth - W * scale) / 2),
    top: Math.max(0, (window.innerHeight - H * scale) / 2),
  };
}

/**
 * The big screen's stage: a fixed 1920×1080 composition scaled (CSS transform) to the window and centred, black
 * bars where the window's shape differs. Every widget is laid out in design pixels; the scale is recomputed on
 * resize (one frame later at most), so the wall at 4K, a 1080p monitor and a 1366×768 laptop show the same picture.
 */
export function Stage({ children }: { children: ReactNode }): ReactElement {
  const [{ scale, left, top }, setFit] = useState(fit);
  useEffect(() => {
    let frame = 0;
    const onResize = (): void => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setFit(fit()));
    };
    window.addEventListener('resize', onResize);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return (
    <div className="bs-viewport" data-testid="big-screen-viewport">
      <div
        className="bs-stage"
        data-testid="big-screen-stage"
        data-scale={scale.toFixed(4)}
        style={{ width: W, height: H, transform: `translate(${left}px, ${top}px) scale(${scale})` }}
      >
        {children}
      </div>
    </div>
  );
}
