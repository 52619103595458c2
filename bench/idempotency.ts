// Idempotent writes over HTTP (issue 34 item 6), on one `strand serve` of the bench project. One
// request at a time (the server is far from saturated, so what is compared is the work each kind
// of request makes the server do): `AddItem` plain; `AddItem` with a fresh Idempotency-Key (the
// answer stored in the write's transaction); a replay (a key already answered, the same body);
// and `GetItem`, a point read. Blocks of each kind alternate; per kind: server CPU per request
// (from /proc) and p50 latency. Targets (issue 34): a keyed write ≤ 1.1× a plain one; a replay
// ≤ a point read.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { measureBlocks, measureOf, type RequestSide, renderSides } from "./request-blocks.js";
import { startStrand } from "./servers.js";

export const KEYED_WRITE_TARGET = 1.1;
export const REPLAY_TARGET = 1;

const KINDS = ["write", "keyed write", "replay", "point read"] as const;
type Kind = (typeof KINDS)[number];

export interface IdempotencyResult {
  sides: RequestSide<Kind>[];
  /** Keyed write ÷ plain write, by server CPU per request (p50 latency when no /proc). */
  keyedRatio: number;
  /** Replay ÷ point read, the same way. */
  replayRatio: number;
}

export async function runIdempotencyBench(settings: {
  calls: number;
  root: string;
  log: (line: string) => void;
}): Promise<IdempotencyResult> {
  const dataDir = mkdtempSync(join(settings.root, "idempotency-"));
  const server = await startStrand(dataDir, null);
  try {
    const post = async (path: string, body: unknown, key?: string): Promise<unknown> => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (key !== undefined) headers["idempotency-key"] = key;
      const res = await fetch(`${server.url}/${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      const answer = (await res.json()) as unknown;
      if (!res.ok) throw new Error(`idempotency bench: ${path} answered ${res.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    let n = 0;
    const stored = (await post("AddItem", { name: "stored", n: -1 }, "replayed-key")) as { item: { id: string } };
    const call: Record<Kind, () => Promise<unknown>> = {
      write: () => post("AddItem", { name: `item ${n}`, n: n++ }),
      "keyed write": () => post("AddItem", { name: `item ${n}`, n: n++ }, `key-${n}`),
      replay: () => post("AddItem", { name: "stored", n: -1 }, "replayed-key"),
      "point read": () => post("GetItem", { id: stored.item.id }),
    };
    for (const kind of KINDS) for (let i = 0; i < 20; i++) await call[kind](); // warm-up
    const sides = await measureBlocks(KINDS, call, settings.calls, server.child.pid);
    const result = {
      sides,
      keyedRatio: measureOf(sides, "keyed write") / measureOf(sides, "write"),
      replayRatio: measureOf(sides, "replay") / measureOf(sides, "point read"),
    };
    settings.log(
      `idempotency: keyed write ${result.keyedRatio.toFixed(2)}x a plain one, replay ${result.replayRatio.toFixed(2)}x a point read (server CPU per request)`,
    );
    return result;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function renderIdempotency(result: IdempotencyResult): string {
  const lines = renderSides("Idempotent writes over HTTP (one request at a time; server CPU per request from /proc)", result.sides);
  lines.push(
    `  keyed write / write ${result.keyedRatio.toFixed(2)}x (target <= ${KEYED_WRITE_TARGET}); replay / point read ${result.replayRatio.toFixed(2)}x (target <= ${REPLAY_TARGET})`,
  );
  return lines.join("\n");
}
