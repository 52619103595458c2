// Startup time (issue 11): from spawning `strand serve <project> --port 0 --data <dir>` to the
// first 200 from GET /health, for the bundled 22-query example and the generated 250-query,
// 80-type project (startup-project.ts). Cold: a fresh data directory, so nothing compiled before
// is cached; warm: a data directory the same project was served from before (its compile cache
// in place). With `--startup-baseline <cli>` another build of the CLI (e.g. one made from the
// commit before a change) is measured in the same rounds, so before/after sit side by side.
// Rounds alternate which CLI and which variant goes first; the figure is the median.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { stopChild, trackChild } from "./cleanup.js";
import { processCpuSeconds } from "./proc-cpu.js";
import { captureOutput, CLI, REPO_ROOT, waitFor } from "./servers.js";
import { writeStartupProject } from "./startup-project.js";
import { median } from "./stats.js";

/** The warm start of the large project must answer within this (issue 11). */
export const STARTUP_TARGET_MS = 1000;

export interface StartupRow {
  project: string;
  queries: number;
  /** "this build" or the baseline CLI's path */
  cli: string;
  coldMs: number[];
  warmMs: number[];
  coldMedianMs: number;
  warmMedianMs: number;
  /** CPU time (user + system) the server spent until /health answered: steadier than wall time on a busy machine. */
  coldCpuMs: number[];
  warmCpuMs: number[];
  coldMedianCpuMs: number;
  warmMedianCpuMs: number;
}

export interface StartupResult {
  runs: number;
  rows: StartupRow[];
}

export interface StartupOptions {
  root: string;
  runs: number;
  baselineCli: string | null;
  log: (line: string) => void;
}

interface StartTiming {
  wallMs: number;
  cpuMs: number;
}

/** One start: spawn to the first answered /health, then a graceful stop. */
async function timeStart(cli: string, project: string, dataDir: string): Promise<StartTiming> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, "serve", project, "--port", "0", "--data", dataDir], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  trackChild(child);
  try {
    let onLog: ((all: string) => void) | undefined;
    const output = captureOutput(child, (all) => onLog?.(all));
    const url = await waitFor<string>(child, `strand serve ${project}`, output, (done) => {
      onLog = (all) => {
        const match = /strand listening on (http:\/\/\S+)/.exec(all);
        if (match) done(match[1]!);
      };
    });
    const health = await fetch(`${url}/health`);
    await health.arrayBuffer();
    const wallMs = performance.now() - t0;
    if (health.status !== 200) throw new Error(`GET ${url}/health answered ${health.status}`);
    return { wallMs, cpuMs: (processCpuSeconds(child.pid) ?? Number.NaN) * 1000 };
  } finally {
    await stopChild(child);
  }
}

export async function benchStartup(options: StartupOptions): Promise<StartupResult> {
  const generated = writeStartupProject(join(options.root, "startup-project"));
  const projects = [
    { name: "examples/social", dir: join(REPO_ROOT, "examples/social"), queries: 22 },
    { name: `generated (${generated.types} types)`, dir: generated.dir, queries: generated.queries },
  ];
  const clis = [
    { name: "this build", path: CLI },
    ...(options.baselineCli === null ? [] : [{ name: options.baselineCli, path: options.baselineCli }]),
  ];
  const rows: StartupRow[] = [];
  const warmDirs = new Map<StartupRow, string>();
  let n = 0;
  for (const project of projects) {
    for (const cli of clis) {
      const row: StartupRow = {
        project: project.name,
        queries: project.queries,
        cli: cli.name,
        coldMs: [],
        warmMs: [],
        coldMedianMs: 0,
        warmMedianMs: 0,
        coldCpuMs: [],
        warmCpuMs: [],
        coldMedianCpuMs: 0,
        warmMedianCpuMs: 0,
      };
      rows.push(row);
      // The warm directory: served once (untimed), so its compile cache is in place.
      const dir = join(options.root, `startup-warm-${n++}`);
      mkdirSync(dir);
      await timeStart(cli.path, project.dir, dir);
      warmDirs.set(row, dir);
    }
  }
  for (let round = 0; round < options.runs; round++) {
    const order = round % 2 === 0 ? rows : [...rows].reverse();
    for (const row of order) {
      const path = clis.find((c) => c.name === row.cli)!.path;
      const project = projects.find((p) => p.name === row.project)!.dir;
      const coldDir = join(options.root, `startup-cold-${n++}`);
      const cold = async (): Promise<void> => {
        const t = await timeStart(path, project, coldDir);
        row.coldMs.push(t.wallMs);
        row.coldCpuMs.push(t.cpuMs);
        rmSync(coldDir, { recursive: true, force: true });
      };
      const warm = async (): Promise<void> => {
        const t = await timeStart(path, project, warmDirs.get(row)!);
        row.warmMs.push(t.wallMs);
        row.warmCpuMs.push(t.cpuMs);
      };
      if (round % 2 === 0) {
        await cold();
        await warm();
      } else {
        await warm();
        await cold();
      }
    }
    options.log(`startup round ${round + 1}/${options.runs} done`);
  }
  for (const row of rows) {
    row.coldMedianMs = median(row.coldMs);
    row.warmMedianMs = median(row.warmMs);
    row.coldMedianCpuMs = median(row.coldCpuMs);
    row.warmMedianCpuMs = median(row.warmCpuMs);
  }
  return { runs: options.runs, rows };
}

export function renderStartup(result: StartupResult): string {
  const lines = [
    `startup: process start -> GET /health answers, median of ${result.runs} runs (cold: fresh data dir, no compile cache; warm: cache in place)`,
    `${"project".padEnd(28)}${"queries".padStart(8)}  ${"cli".padEnd(14)}${"cold ms".padStart(9)}${"warm ms".padStart(9)}${"cold cpu ms".padStart(13)}${"warm cpu ms".padStart(13)}   target`,
  ];
  for (const row of result.rows) {
    const large = row.queries >= 200;
    const target = large ? `warm <= ${STARTUP_TARGET_MS} ms: ${row.warmMedianMs <= STARTUP_TARGET_MS ? "PASS" : "MISS"}` : "";
    lines.push(
      `${row.project.padEnd(28)}${String(row.queries).padStart(8)}  ${row.cli.slice(-14).padEnd(14)}${row.coldMedianMs.toFixed(0).padStart(9)}${row.warmMedianMs.toFixed(0).padStart(9)}${row.coldMedianCpuMs.toFixed(0).padStart(13)}${row.warmMedianCpuMs.toFixed(0).padStart(13)}   ${target}`,
    );
  }
  return lines.join("\n");
}
