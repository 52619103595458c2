#!/usr/bin/env node
// `npm run test:load`: the whole suite with two CPU-burning processes beside it, as a shared
// 2-core machine runs it, to show that no test depends on the machine's speed. Prints the wall
// time; the exit status is vitest's. Run after `npm run build` (the script does it first).
import { spawn } from "node:child_process";

const HOGS = 2;
// A busy loop in its own process: it never yields, so each takes one core's worth of CPU.
const hogs = Array.from({ length: HOGS }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
const stopHogs = () => {
  for (const hog of hogs) hog.kill("SIGKILL");
};
process.on("SIGINT", () => {
  stopHogs();
  process.exit(130);
});

const started = performance.now();
const vitest = spawn("npx", ["--no-install", "vitest", "run", ...process.argv.slice(2)], { stdio: "inherit" });
vitest.on("exit", (code) => {
  stopHogs();
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `test:load: the suite beside ${HOGS} CPU-burning processes took ${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s\n`,
  );
  process.exit(code ?? 1);
});
