// Progress of long work (import, export, backup, index rebuilds at open, migrations), reported by
// the layer doing the work and drawn by the layer facing the user. The runtime only counts; the
// CLI decides between a progress bar (TTY) and a periodic log line (pipe, file, CI). A leaf module.

/** One piece of long work: advanced as it goes, finished once. */
export interface ProgressTask {
  /** `n` more units done (records, bytes, vectors: the unit the task was started with). */
  advance(n: number): void;
  /** The work is over: a final line is drawn (or nothing, for a silent sink). */
  finish(): void;
}

/** Where long work reports. `total` is the number of units when known in advance. */
export interface ProgressSink {
  start(label: string, unit: string, total?: number): ProgressTask;
}

const SILENT_TASK: ProgressTask = { advance() {}, finish() {} };

/** Reports nowhere: the default for library callers and tests. */
export const silentProgress: ProgressSink = { start: () => SILENT_TASK };
