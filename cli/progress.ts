/**
 * Progress of a long run on a terminal: one self-overwriting line on stderr, drawn at most a few
 * times per second and cleared at the end. The wall clock is read here, in the command line only;
 * the simulation never sees it.
 */
import type { SimulateProgress } from '../runtime/simulate.ts';

/** Where progress is drawn: a terminal stream (stderr when it is a TTY). */
export interface ProgressStream {
  write(s: string): unknown;
}

/** A progress line: feed it `simulate`'s progress, clear it when the run ends. */
export interface ProgressLine {
  readonly onProgress: (p: SimulateProgress) => void;
  /** Erases the line (call once, also when the run failed). */
  clear(): void;
}

/** Millions, one decimal. */
const mega = (v: number): string => (v / 1e6).toFixed(1);

/** The text of one progress line: "simulated 123.4 us, 5.1 M events, 2.3 M events/s". */
export function formatProgress(p: SimulateProgress, wallSeconds: number): string {
  const rate = wallSeconds > 0 ? p.events / wallSeconds : 0;
  return `simulated ${p.simulatedTimeUs.toFixed(1)} us, ${mega(p.events)} M events, ${mega(rate)} M events/s`;
}

/**
 * A line on `stream` redrawn at most every `minIntervalMs` of wall time; `now` gives wall time
 * in ms (performance.now by default).
 */
export function progressLine(stream: ProgressStream, opts: { minIntervalMs?: number; now?: () => number } = {}): ProgressLine {
  const now = opts.now ?? (() => performance.now());
  const minInterval = opts.minIntervalMs ?? 250;
  const start = now();
  let last = -Infinity;
  let drawn = false;
  return {
    onProgress(p) {
      const t = now();
      if (t - last < minInterval) return;
      last = t;
      drawn = true;
      // carriage return, the line, erase to its end
      stream.write(`\r${formatProgress(p, (t - start) / 1000)}\x1b[K`);
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
