// The CLI's progress sink: a bar with rate and ETA on a terminal (cli-progress), one log line
// every few seconds otherwise, so a pipe or CI log shows the work moving without a flood of lines.
import { SingleBar } from "cli-progress";
import type { ProgressSink, ProgressTask } from "../../core/progress.js";
import { describeProgress, progressFigures, shortCount, shortDuration } from "./rate.js";

export interface ProgressOptions {
  /** Where lines and the bar go (stderr by default, so stdout stays free for data: `export --out -`). */
  stream?: NodeJS.WriteStream;
  /** Draw a bar (default: when the stream is a TTY). */
  tty?: boolean;
  /** Milliseconds between log lines when not drawing a bar. */
  logEveryMs?: number;
  now?: () => number;
}

export function cliProgress(options: ProgressOptions = {}): ProgressSink {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? stream.isTTY === true;
  const now = options.now ?? Date.now;
  const logEveryMs = options.logEveryMs ?? 3000;
  return {
    start(label, unit, total) {
      return tty ? barTask(stream, label, unit, total) : logTask(stream, label, unit, total, logEveryMs, now);
    },
  };
}

function logTask(
  stream: NodeJS.WritableStream,
  label: string,
  unit: string,
  total: number | undefined,
  everyMs: number,
  now: () => number,
): ProgressTask {
  const started = now();
  let done = 0;
  let lastLine = started;
  const line = () => describeProgress(label, unit, progressFigures(done, total, now() - started));
  return {
    advance(n) {
      done += n;
      const t = now();
      if (t - lastLine >= everyMs) {
        lastLine = t;
        stream.write(`${line()}\n`);
      }
    },
    finish() {
      const seconds = (now() - started) / 1000;
      stream.write(`${label}: ${shortCount(done)} ${unit} in ${shortDuration(seconds)}\n`);
    },
  };
}

function barTask(stream: NodeJS.WriteStream, label: string, unit: string, total: number | undefined): ProgressTask {
  const known = total !== undefined;
  const bar = new SingleBar({
    stream,
    format: known
      ? `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {speed} ${unit}/s | ETA {eta_formatted}`
      : `${label} {value} ${unit} | {speed} ${unit}/s`,
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 50,
  });
  const started = Date.now();
  let done = 0;
  bar.start(total ?? 0, 0, { speed: "0" });
  return {
    advance(n) {
      done += n;
      const seconds = (Date.now() - started) / 1000;
      bar.update(done, { speed: shortCount(seconds > 0 ? done / seconds : 0) });
    },
    finish() {
      if (!known) bar.setTotal(done);
      bar.stop();
    },
  };
}
