// Restart after a crash with vectors (issue 16 target: opening after kill -9 with 1,000 vector
// writes since the last checkpoint takes at most 2× a clean open). A store of `count` vectors is
// filled and closed cleanly (a checkpoint at its generation); a child opens it (clean open);
// another child acknowledges `writes` AddV writes with checkpoints off and is killed with SIGKILL;
// a third opens it again: it loads the checkpoint and replays the logged writes. Each open runs in
// a fresh process and is timed around GraphStore.open (the part `strand serve` spends on the store).
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { GraphStore } from "../runtime/graph-store.js";
import type { VectorIndexStatus } from "../runtime/vector/vector-indexes.js";
import { tempDir } from "./cleanup.js";
import { seededRandom } from "./random.js";
import { fillVectors } from "./vector.js";
import { unitVectors } from "./vector-data.js";
import { vectorProjectSchema } from "./vector-project.js";

export const RESTART_TARGET_RATIO = 2;

export interface RestartResult {
  count: number;
  dim: number;
  writes: number;
  fillSeconds: number;
  clean: { openMs: number; status: VectorIndexStatus };
  crash: { openMs: number; status: VectorIndexStatus };
  ratio: number;
}

const CHILD = fileURLToPath(new URL("./vector-restart-child.js", import.meta.url));

function openInChild(dir: string): { openMs: number; status: VectorIndexStatus } {
  const run = spawnSync(process.execPath, [CHILD, "open", dir], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`open child failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { openMs: number; status: VectorIndexStatus };
}

async function writeAndKill(dir: string, writes: number, dim: number, seed: number): Promise<void> {
  const child = spawn(process.execPath, [CHILD, "write", dir, String(writes), String(dim), String(seed)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes("done")) {
        child.kill("SIGKILL");
        resolve();
      }
    });
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`write child exited (${code ?? signal}): ${stderr}`));
    });
  });
  await new Promise((resolve) => child.on("close", resolve));
}

export async function benchVectorRestart(
  o: { count: number; dim: number; writes: number; seed: number },
  log: (line: string) => void,
): Promise<RestartResult> {
  const dir = tempDir("strand-bench-restart-");
  const set = unitVectors(seededRandom(o.seed), o.count, o.dim);
  const store = GraphStore.open({ path: dir, schema: vectorProjectSchema() });
  const t0 = performance.now();
  try {
    await fillVectors(store, set);
  } finally {
    await store.close();
  }
  const fillSeconds = (performance.now() - t0) / 1000;
  log(`restart: ${o.count.toLocaleString("en-US")} vectors of dim ${o.dim} filled and checkpointed in ${fillSeconds.toFixed(1)} s`);
  const clean = openInChild(dir);
  log(`restart: clean open ${clean.openMs.toFixed(0)} ms (${clean.status.source})`);
  await writeAndKill(dir, o.writes, o.dim, o.seed + 1);
  const crash = openInChild(dir);
  log(
    `restart: open after kill -9 following ${o.writes} AddV: ${crash.openMs.toFixed(0)} ms (${crash.status.source}, ${crash.status.replayed} replayed)`,
  );
  return { ...o, fillSeconds, clean, crash, ratio: crash.openMs / clean.openMs };
}

export function renderRestart(r: RestartResult): string {
  const verdict = r.ratio <= RESTART_TARGET_RATIO && r.crash.status.source === "replayed" ? "PASS" : "MISS";
  return [
    `Vector restart: ${r.count.toLocaleString("en-US")} vectors of dim ${r.dim}, GraphStore.open in a fresh process`,
    `  clean open (checkpoint current):                  ${r.clean.openMs.toFixed(0).padStart(7)} ms  ${r.clean.status.source}`,
    `  open after kill -9 following ${String(r.writes).padEnd(5)} AddV writes: ${r.crash.openMs.toFixed(0).padStart(7)} ms  ${r.crash.status.source}, ${r.crash.status.replayed} changes replayed`,
    `  ratio ${r.ratio.toFixed(2)} (target <= ${RESTART_TARGET_RATIO}): ${verdict}`,
  ].join("\n");
}
