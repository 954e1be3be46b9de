import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { RANKING_BOARD } from '@geosentry/contract';

/** How long a step's slide takes (ms); the wait between steps is the spec's waitTime. */
const SLIDE_MS = 500;

/**
 * A single-row carousel over `count` items showing `rows` at a time (spec §9 "carousel: single"): every `waitMs` the
 * list slides up by one row and the first item goes to the end. `offset` is the first item shown, `sliding` is true
 * during the slide. No step when everything fits; the timers stop on unmount and restart when the count changes.
 */
export function useCarousel(count: number, rows: number, waitMs: number): { offset: number; sliding: boolean } {
  const [offset, setOffset] = useState(0);
  const [sliding, setSliding] = useState(false);
  const moves = count > rows;
  useEffect(() => {
    setOffset(0);
    setSliding(false);
    if (!moves) return;
    let slideTimer: ReturnType<typeof setTimeout> | undefined;
    const step = setInterval(() => {
      // A hidden tab does not slide (its timers are throttled anyway): nothing to see, nothing to draw.
      if (document.hidden) return;
      setSliding(true);
      slideTimer = setTimeout(() => {
        setSliding(false);
        setOffset((o) => (o + 1) % count);
      }, SLIDE_MS);
    }, waitMs + SLIDE_MS);
    return () => {
      clearInterval(step);
      clearTimeout(slideTimer);
    };
  }, [count, moves, waitMs]);
  return { offset: moves ? offset % count : 0, sliding: moves && sliding };
}

export interface RankRow {
  key: string | number;
  /** The reading's name (e.g. "Site · device · quantity"). */
  name: string;
  /** What it is ranked by (larger first when sorted). */
  rank: number;
  /** The value as shown (with its unit). */
  value: string;
  /** A colour mark for the row (a state or level colour). */
  colour?: string;
}

/**
 * The ranking board (spec §9 dashboard widget defaults): RANKING_BOARD.rowNum rows, a header of
 * RANKING_BOARD.headerHeight px, rows sorted (largest first, numbered), each the reading's name and value, moving one
 * row every RANKING_BOARD.waitTime ms when there are more rows than fit. Our own component: a few DOM rows, no
 * dependency, no canvas.
 */
export function RankingBoard({
  rows,
  header,
  height,
  empty,
  sort = RANKING_BOARD.sort,
  rowNum = RANKING_BOARD.rowNum,
  waitTime = RANKING_BOARD.waitTime,
  headerHeight = RANKING_BOARD.headerHeight,
  testId,
}: {
  rows: readonly RankRow[];
  header: [ReactNode, ReactNode];
  /** The board's height in design px (header included). */
  height: number;
  empty: ReactNode;
  sort?: boolean;
  rowNum?: number;
  waitTime?: number;
  headerHeight?: number;
  testId?: string;
}): ReactElement {
  const sorted = useMemo(
    () => (sort ? [...rows].sort((a, b) => b.rank - a.rank || a.name.localeCompare(b.name)) : [...rows]),
    [rows, sort],
  );
  const { offset, sliding } = useCarousel(sorted.length, rowNum, waitTime);
  const rowHeight = (height - headerHeight) / rowNum;
  // The rows on show, and the one that slides in; each keeps its rank number.
  const shown: Array<{ row: RankRow; n: number }> = [];
  const visible = Math.min(sorted.length, sorted.length > rowNum ? rowNum + 1 : rowNum);
  for (let i = 0; i < visible; i++) {
    const n = (offset + i) % sorted.length;
    shown.push({ row: sorted[n]!, n });
  }
  return (
    <div className="bs-rank" style={{ height }} data-testid={testId} data-rows={sorted.length}>
      <div className="bs-rank-head" style={{ height: headerHeight, lineHeight: `${headerHeight}px` }}>
        <span className="bs-rank-no">#</span>
        <span className="bs-rank-name">{header[0]}</span>
        <span className="bs-rank-value">{header[1]}</span>
      </div>
      {sorted.length === 0 ? (
        <div className="bs-empty" style={{ height: height - headerHeight }}>
          {empty}
        </div>
      ) : (
        <div className="bs-rank-window" style={{ height: height - headerHeight }}>
          <div
            className={sliding ? 'bs-rank-rows bs-sliding' : 'bs-rank-rows'}
            style={{
              transform: sliding ? `translateY(${-rowHeight}px)` : 'none',
              transitionDuration: sliding ? `${SLIDE_MS}ms` : '0ms',
            }}
          >
            {shown.map(({ row, n }, i) => (
              <div
                key={`${i}:${row.key}`}
                className={n % 2 ? 'bs-rank-row bs-odd' : 'bs-rank-row'}
                style={{ height: rowHeight }}
                data-testid="rank-row"
              >
                <span className="bs-rank-no" style={row.colour ? { background: row.colour } : undefined}>
                  {sort ? n + 1 : ''}
                </span>
                <span className="bs-rank-name" title={row.name}>
                  {row.name}
                </span>
                <span className="bs-rank-value">{row.value}</span>
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
