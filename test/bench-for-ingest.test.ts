// The FOR-loop ingest bench (bench/for-ingest.ts) at a small size, in the two cases issue 32 item 3
// sets targets for: every source random, into the nodes alone and into a store that imported
// edges first. A request whose ids the store does not hold answers 404 and fails the run, so a
// finished run means every edge was written. Figures only; no timing is asserted.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { uuidv7 } from "../runtime/store/ids.js";

// The compiled bench: it starts dist/cli/strand.js relative to its own folder (bench/servers.ts).
const COMPILED = "../dist/bench/for-ingest.js";

it("writes every edge with random sources, into the nodes alone and into a store holding edges", async () => {
  const root = mkdtempSync(join(tmpdir(), "strand-bench-ingest-"));
  try {
    const { runForIngest } = (await import(COMPILED)) as typeof import("../bench/for-ingest.js");
    const ids = Array.from({ length: 50 }, () => uuidv7());
    const nodes = ids.map((id, i) => JSON.stringify({ kind: "N", label: "Item", id, group: `g${i % 5}`, name: `item ${i}` }));
    const edges = ids.map((from, i) => JSON.stringify({ kind: "E", label: "Link", id: uuidv7(), from, to: ids[(i * 7) % ids.length] }));
    writeFileSync(join(root, "nodes.jsonl"), `${nodes.join("\n")}\n`);
    writeFileSync(join(root, "all.jsonl"), `${[...nodes, ...edges].join("\n")}\n`);
    const runs = [];
    for (const prefillFile of [undefined, join(root, "all.jsonl")]) {
      const result = await runForIngest({
        root,
        nodesFile: join(root, "nodes.jsonl"),
        ids,
        batch: 100,
        edges: 500,
        degree: 10,
        seed: 7,
        concurrency: 1,
        baselines: [],
        log: () => {},
        sources: "random",
        prefillFile,
        prefilledEdges: prefillFile === undefined ? 0 : edges.length,
      });
      runs.push({
        edges: result.edges,
        sources: result.sources,
        prefilled: result.prefilledEdges,
        grew: result.current.diskBytesPerEdge > 0,
        timed: result.current.requestP99Ms > 0 && result.current.slowestRequestMs >= result.current.requestP99Ms,
      });
    }
    expect(runs).toEqual([
      { edges: 500, sources: "random", prefilled: 0, grew: true, timed: true },
      { edges: 500, sources: "random", prefilled: 50, grew: true, timed: true },
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);
