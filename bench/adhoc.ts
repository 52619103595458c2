// Ad-hoc queries over HTTP (issue 33 item 2), on one `strand serve` of the bench project, one
// request at a time: `GetItem` (a named point read) and the same read sent to `POST /query` as a
// body (`item <- N<Item>(id) RETURN item`, compiled once, then served from the ad-hoc cache).
// Blocks of each alternate; per kind: server CPU per request (from /proc) and p50 latency. Then
// the first compile of distinct 5-line queries (each text new, so each compiles), p50 and max of
// the request's time. Targets: a cached ad-hoc read ≤ 1.2× the named one; a first compile of a
// 5-line query ≤ 20 ms.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { measureBlocks, measureOf, type RequestSide, renderSides } from "./request-blocks.js";
import { startStrand } from "./servers.js";
import { quantileSorted } from "./stats.js";

export const ADHOC_READ_TARGET = 1.2;
export const ADHOC_COMPILE_TARGET_MS = 20;

const KINDS = ["named read", "ad-hoc read"] as const;
type Kind = (typeof KINDS)[number];

export interface AdHocResult {
  sides: RequestSide<Kind>[];
  /** Ad-hoc ÷ named, by server CPU per request (p50 latency when no /proc). */
  ratio: number;
  /** A request whose 5-line query is compiled first: p50 and max, ms. */
  compileP50Ms: number;
  compileMaxMs: number;
  compiles: number;
}

export async function runAdHocBench(settings: { calls: number; root: string; log: (line: string) => void }): Promise<AdHocResult> {
  const dataDir = mkdtempSync(join(settings.root, "adhoc-"));
  const server = await startStrand(dataDir, null);
  try {
    const post = async (path: string, body: unknown): Promise<unknown> => {
      const res = await fetch(`${server.url}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as unknown;
      if (!res.ok) throw new Error(`ad-hoc bench: ${path} answered ${res.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const stored = (await post("AddItem", { name: "stored", n: 1 })) as { item: { id: string } };
    const id = stored.item.id;
    const call: Record<Kind, () => Promise<unknown>> = {
      "named read": () => post("GetItem", { id }),
      "ad-hoc read": () => post("query", { query: "item <- N<Item>(id)\nRETURN item", params: { id } }),
    };
    for (const kind of KINDS) for (let i = 0; i < 50; i++) await call[kind](); // warm-up, and the one compile
    const sides = await measureBlocks(KINDS, call, settings.calls, server.child.pid);
    // Distinct texts: each request compiles its query (a 5-line body, numbered so no two are equal).
    const compileMs: number[] = [];
    for (let i = 0; i < 50; i++) {
      const query = [
        `item <- N<Item>(id)`,
        `others <- N<Item>::WHERE(_::{n}::GT(${i}))::RANGE(0, 5)`,
        `count <- others::COUNT`,
        `names <- others::{name}`,
        `RETURN item, count, names`,
      ].join("\n");
      const t = performance.now();
      await post("query", { query, params: { id } });
      compileMs.push(performance.now() - t);
    }
    compileMs.sort((a, b) => a - b);
    const result: AdHocResult = {
      sides,
      ratio: measureOf(sides, "ad-hoc read") / measureOf(sides, "named read"),
      compileP50Ms: quantileSorted(compileMs, 0.5),
      compileMaxMs: compileMs[compileMs.length - 1]!,
      compiles: compileMs.length,
    };
    settings.log(
      `ad-hoc: a cached ad-hoc read ${result.ratio.toFixed(2)}x the named one; first compile p50 ${result.compileP50Ms.toFixed(1)} ms`,
    );
    return result;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function renderAdHoc(result: AdHocResult): string {
  const lines = renderSides(
    "Ad-hoc queries over HTTP, POST /query (one request at a time; server CPU per request from /proc)",
    result.sides,
  );
  const readPass = result.ratio <= ADHOC_READ_TARGET ? "PASS" : "MISS";
  const compilePass = result.compileMaxMs <= ADHOC_COMPILE_TARGET_MS ? "PASS" : "MISS";
  lines.push(`  cached ad-hoc read / named read ${result.ratio.toFixed(2)}x (target <= ${ADHOC_READ_TARGET}: ${readPass})`);
  lines.push(
    `  a request whose 5-line query compiles first: p50 ${result.compileP50Ms.toFixed(1)} ms, max ${result.compileMaxMs.toFixed(1)} ms of ${result.compiles} (target <= ${ADHOC_COMPILE_TARGET_MS} ms: ${compilePass})`,
  );
  return lines.join("\n");
}
