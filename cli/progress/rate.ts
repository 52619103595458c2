// The figures a progress line shows: units per second and the time left, from counts and clocks.

export interface ProgressFigures {
  done: number;
  total?: number;
  /** Units per second since the task started (0 before any time has passed). */
  rate: number;
  /** Seconds left at the current rate, when the total is known and the rate is not 0. */
  etaSeconds?: number;
}

export function progressFigures(done: number, total: number | undefined, elapsedMs: number): ProgressFigures {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const figures: ProgressFigures = { done, rate };
  if (total !== undefined) {
    figures.total = total;
    if (rate > 0) figures.etaSeconds = Math.max(0, (total - done) / rate);
  }
  return figures;
}

/** "12.3k", "1.20M": counts and rates short enough for one line. */
export function shortCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 2 : 1)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
}

/** "45s", "3m05s", "1h02m". */
export function shortDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** One line for logs: "import: 120k/1.10M records (10.9%), 52.0k records/s, ETA 19s". */
export function describeProgress(label: string, unit: string, f: ProgressFigures): string {
  const of = f.total === undefined ? "" : `/${shortCount(f.total)}`;
  const pct = f.total === undefined || f.total === 0 ? "" : ` (${((100 * f.done) / f.total).toFixed(1)}%)`;
  const eta = f.etaSeconds === undefined ? "" : `, ETA ${shortDuration(f.etaSeconds)}`;
  return `${label}: ${shortCount(f.done)}${of} ${unit}${pct}, ${shortCount(f.rate)} ${unit}/s${eta}`;
}
