// The server's logger (pino): JSON lines for machines (files, containers, CI), a short readable
// line per event on a terminal. Logs go to stderr; stdout keeps the one "strand listening on" line.
import fs from "node:fs";
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";

import { DEFAULT_LOG_LEVEL, type LogLevel } from "./log-level.js";

export type { Logger, LogLevel };

export interface LoggerOptions {
  level?: LogLevel;
  /** Readable lines instead of JSON (default: when the stream is a terminal). */
  pretty?: boolean;
  /** Where lines go (default stderr). */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const pretty = options.pretty ?? stream.isTTY === true;
  const destination = pretty ? prettyStream(stream) : stream;
  return pino(
    {
      level: options.level ?? DEFAULT_LOG_LEVEL,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/**
 * Lines written straight to a file descriptor, each with one write(2). For the front door's
 * thread: a worker's process.stderr is relayed through the main thread, so its lines would wait
 * while the engine is busy, which is when they matter. One write per line keeps lines whole
 * beside the main thread's.
 */
export function fdStream(fd: number): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      try {
        fs.writeSync(fd, chunk);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

/** A logger that drops everything: the default for library callers and tests. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

const HIDDEN = new Set(["level", "time", "msg"]);

/** "12:00:01.123 INFO  request POST /AddUser status=200 ms=1.2 bytes=154" from one JSON line. */
export function prettyLine(json: string): string {
  const record = JSON.parse(json) as Record<string, unknown>;
  const time = typeof record.time === "string" ? record.time.slice(11, 23) : "";
  const level = String(record.level ?? "")
    .toUpperCase()
    .padEnd(5);
  const fields = Object.entries(record)
    .filter(([k]) => !HIDDEN.has(k))
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return [time, level, String(record.msg ?? ""), ...fields].filter((s) => s !== "").join(" ");
}

function prettyStream(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line !== "") out.write(`${prettyLine(line)}\n`);
      done();
    },
  });
}
