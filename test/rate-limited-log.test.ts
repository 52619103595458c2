// At most one line a second for events a client can cause at will (server/front-door/rate-limited-log.ts).
import { expect, it } from "vitest";
import { rateLimitedLog } from "../server/front-door/rate-limited-log.js";

it("writes one line a second, counts the others, and writes the last held-back line when its second ends", () => {
  const lines: string[] = [];
  let clock = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const log = rateLimitedLog(
    (line) => lines.push(`${clock}: ${line}`),
    () => clock,
    (fn, ms) => timers.push({ at: clock + ms, fn }),
  );
  log("refused a");
  clock = 200;
  log("refused b");
  clock = 300;
  log("refused c");
  // One timer for the held-back lines, at the end of the second.
  expect(timers.map((t) => t.at)).toEqual([1000]);
  clock = 1000;
  timers.shift()!.fn();
  expect(lines).toEqual(["0: refused a", "1000: refused c (and 1 more since the last line)"]);
  // Within the next second again: held back until that second ends; none left then, nothing more.
  clock = 1500;
  log("refused d");
  clock = 2000;
  timers.shift()!.fn();
  clock = 3500;
  log("refused e");
  expect(lines).toEqual(["0: refused a", "1000: refused c (and 1 more since the last line)", "2000: refused d", "3500: refused e"]);
  expect(timers).toEqual([]);
});

it("counts held-back lines into the next line written when it comes first", () => {
  const lines: string[] = [];
  let clock = 0;
  const pending: (() => void)[] = [];
  const log = rateLimitedLog(
    (line) => lines.push(line),
    () => clock,
    (fn) => pending.push(fn),
  );
  log("x");
  clock = 10;
  log("y");
  log("z");
  clock = 1200;
  log("w");
  pending.shift()!();
  expect(lines).toEqual(["x", "w (and 2 more since the last line)"]);
});
