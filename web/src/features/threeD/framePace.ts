/**
 * The pace of moving frames: the time each waited from being asked for to being drawn (about one display frame,
 * 16.7 ms, when drawing keeps up). Over a window of frames, a median above SLOW asks for a lower resolution (+1
 * step), one under FAST for a higher (-1); the window then starts again, so a change is judged on its own frames.
 */
export class FramePace {
  static readonly SLOW = 30;
  static readonly FAST = 18;
  static readonly WINDOW = 6;
  private waits: number[] = [];
  /** Frames judged fast in a row: climbing back needs more evidence than dropping. */
  private fastRuns = 0;

  reset(): void {
    this.waits = [];
  }

  /** Adds a frame's wait; answers +1 (lower the resolution), -1 (raise it) or 0. */
  add(waited: number): -1 | 0 | 1 {
    this.waits.push(waited);
    if (this.waits.length < FramePace.WINDOW) return 0;
    const sorted = [...this.waits].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    this.waits = [];
    if (median > FramePace.SLOW) {
      this.fastRuns = 0;
      return 1;
    }
    if (median < FramePace.FAST) {
      this.fastRuns += 1;
      if (this.fastRuns >= 3) {
        this.fastRuns = 0;
        return -1;
      }
      return 0;
    }
    this.fastRuns = 0;
    return 0;
  }
}
