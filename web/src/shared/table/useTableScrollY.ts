import { useCallback, useEffect, useState } from 'react';

/** Height of a middle-size table header row. */
const HEADER_ROW = 48;

/**
 * The vertical scroll height of a table body. The whole table stays within the table maximum height
 * of spec §3 (the window height minus 200) and, where the page allows it, ends at the bottom of the
 * viewport so the page itself does not scroll.
 * Attach the returned ref to an element right above the table (or wrapping it);
 * `footer` is the room kept below the table body (pagination, card padding, layout margin).
 */
export function useTableScrollY(footer = 88, min = 200): [(el: HTMLElement | null) => void, number] {
  const [height, setHeight] = useState(() => window.innerHeight);
  const [top, setTop] = useState<number | null>(null);
  const [el, setEl] = useState<HTMLElement | null>(null);
  const ref = useCallback((node: HTMLElement | null) => setEl(node), []);

  useEffect(() => {
    const measure = (): void => {
      setHeight(window.innerHeight);
      if (el) setTop(el.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    window.addEventListener('resize', measure);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (el?.parentElement) ro?.observe(el.parentElement);
    return () => {
      window.removeEventListener('resize', measure);
      ro?.disconnect();
    };
  }, [el]);

  const byRule = height - 200 - HEADER_ROW - footer;
  const byViewport = top === null ? byRule : height - top - HEADER_ROW - footer;
  return [ref, Math.max(min, Math.min(byRule, byViewport))];
}
