import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { cliProgress } from "../cli/progress/progress.js";
import { describeProgress, progressFigures, shortCount, shortDuration } from "../cli/progress/rate.js";

describe("progress figures", () => {
  it("computes rate and ETA from counts and elapsed time", () => {
    expect(progressFigures(500, 2000, 1000)).toEqual({ done: 500, total: 2000, rate: 500, etaSeconds: 3 });
    expect(progressFigures(0, 10, 0)).toEqual({ done: 0, total: 10, rate: 0 });
    expect(progressFigures(40, undefined, 2000)).toEqual({ done: 40, rate: 20 });
  });

  it("writes short counts and durations", () => {
    expect([999, 1234, 52_000, 1_100_000, 25_000_000].map(shortCount)).toEqual(["999", "1.23k", "52.0k", "1.10M", "25.0M"]);
    expect([4.4, 65, 3725].map(shortDuration)).toEqual(["4s", "1m05s", "1h02m"]);
  });

  it("describes one log line", () => {
    const f = progressFigures(120_000, 1_100_000, 2000);
    expect(describeProgress("import", "records", f)).toBe("import: 120.0k/1.10M records (10.9%), 60.0k records/s, ETA 16s");
    expect(describeProgress("export", "records", progressFigures(3000, undefined, 1000))).toBe("export: 3.00k records, 3.00k records/s");
  });
});

describe("progress off a terminal", () => {
  it("writes a line every interval and a summary at the end, nothing in between", () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    let text = "";
    (stream as unknown as PassThrough).on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    let clock = 0;
    const task = cliProgress({ stream, tty: false, logEveryMs: 1000, now: () => clock }).start("import", "records", 400);
    clock = 500;
    task.advance(100); // 0.5 s: too soon for a line
    clock = 1000;
    task.advance(100); // 1 s: a line
    clock = 1500;
    task.advance(100);
    clock = 2000;
    task.advance(100); // 2 s: a line
    task.finish();
    expect(text).toBe(
      "import: 200/400 records (50.0%), 200 records/s, ETA 1s\n" +
        "import: 400/400 records (100.0%), 200 records/s, ETA 0s\n" +
        "import: 400 records in 2s\n",
    );
  });
});

describe("progress on a terminal", () => {
  it("draws a bar with percentage, count and rate, ending at 100%", () => {
    const sink = new PassThrough();
    let text = "";
    sink.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    const tty = Object.assign(sink, {
      isTTY: true,
      columns: 120,
      cursorTo: (_x: number, _y?: number) => true,
      clearLine: (_dir: number) => true,
      moveCursor: (_dx: number, _dy: number) => true,
    }) as unknown as NodeJS.WriteStream;
    const task = cliProgress({ stream: tty, tty: true }).start("export", "records", 10);
    task.advance(10);
    task.finish();
    expect(text).toContain("export [");
    expect(text).toContain("100% | 10/10 records |");
  });
});
