// The kill -9 campaign (issue 14): one data directory, `runs` times: start `strand serve` (timed),
// check it against everything acknowledged so far (kill9-check.ts), write from several lanes at
// once (kill9-writes.ts), kill -9 it at a random moment, and run `strand verify` on what it left.
// A last start checks the final kill. Losses must be 0, and so must findings.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkServer } from "./kill9-check.js";
import { Model } from "./kill9-model.js";
import { writeLane, type WriteTally } from "./kill9-writes.js";
import { between, seededRandom } from "./random.js";
import { serve, sleep, verifyDir } from "./strand-child.js";

export interface Kill9Options {
  runs: number;
  seed: number;
  lanes?: number;
  /** Writing time before the kill, drawn per run from [min, max) ms. */
  writeMs?: [number, number];
  log?: (line: string) => void;
  /** True once the campaign should stop early: the runs so far are checked by a last start. */
  stopped?: () => boolean;
}

export interface Kill9Summary {
  runs: number;
  /** Kill runs done; less than `runs` only when stopped early. */
  done: number;
  seed: number;
  acknowledgedWrites: number;
  acknowledgedRecords: number;
  checks: number;
  losses: string[];
  findings: string[];
  verifyRuns: number;
  /** ms from spawn to a healthy /health, of each start after a kill. */
  restartMs: number[];
  final: { items: number; links: number; vectors: number };
}

export async function runKill9(options: Kill9Options): Promise<Kill9Summary> {
  const random = seededRandom(options.seed);
  const lanes = options.lanes ?? 4;
  const [minMs, maxMs] = options.writeMs ?? [300, 3000];
  const log = options.log ?? (() => {});
  const dataDir = mkdtempSync(join(tmpdir(), "strand-campaign-kill9-"));
  const model = new Model();
  const tally: WriteTally = { acked: 0, records: 0, unexpected: [] };
  const summary: Kill9Summary = {
    runs: options.runs,
    done: 0,
    seed: options.seed,
    acknowledgedWrites: 0,
    acknowledgedRecords: 0,
    checks: 0,
    losses: [],
    findings: [],
    verifyRuns: 0,
    restartMs: [],
    final: { items: 0, links: 0, vectors: 0 },
  };
  const checkOnce = async (url: string, run: number): Promise<void> => {
    const outcome = await checkServer(url, model, random);
    summary.checks += outcome.checks;
    summary.losses.push(...outcome.losses.map((m) => `run ${run}: ${m}`));
    summary.findings.push(...outcome.findings.map((m) => `run ${run}: ${m}`));
  };
  try {
    for (let run = 0; run <= options.runs; run++) {
      const server = await serve({ dataDir });
      if (run > 0) summary.restartMs.push(server.startMs);
      try {
        await checkOnce(server.url, run);
        // The last start only checks the last kill.
        if (run === options.runs || options.stopped?.() === true) break;
        let stopped = false;
        const writers = Array.from({ length: lanes }, (_, lane) =>
          writeLane(server.url, model, lane, random, `r${run}`, () => stopped, tally),
        );
        await sleep(between(random, minMs, maxMs));
        // kill -9 while the lanes have requests in flight; a reply that still arrives counts as acknowledged.
        await server.kill();
        stopped = true;
        await Promise.all(writers);
      } finally {
        if (server.alive()) await server.stop();
      }
      const verified = verifyDir(dataDir);
      summary.verifyRuns++;
      summary.done = run + 1;
      if (!verified.ok) summary.findings.push(`run ${run}: strand verify after the kill: ${verified.output}`);
      log(
        `run ${run + 1}/${options.runs}: ${tally.acked} writes acknowledged so far, ${summary.checks} checks, ` +
          `${summary.losses.length} losses, ${summary.findings.length} findings, restart ${summary.restartMs.at(-1)?.toFixed(0) ?? "-"} ms`,
      );
    }
    const verified = verifyDir(dataDir);
    summary.verifyRuns++;
    if (!verified.ok) summary.findings.push(`final strand verify: ${verified.output}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  summary.acknowledgedWrites = tally.acked;
  summary.acknowledgedRecords = tally.records;
  summary.findings.push(...tally.unexpected.map((m) => `unexpected answer: ${m}`));
  summary.final = {
    items: [...model.items.values()].filter((i) => i.alive).length,
    links: model.links.size,
    vectors: [...model.vecs.values()].filter((v) => v.alive).length,
  };
  return summary;
}
