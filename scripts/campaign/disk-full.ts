// The disk-full campaign (issue 14): `strand serve` under a file size limit (RLIMIT_FSIZE through
// prlimit) of a random size. Writes of every kind (items with long BM25 text, FOR ingests,
// vectors) go on until the store is full; from then on each write is a 507 STORAGE_FULL with
// {error, code} or a 200, /health and reads keep answering, and nothing acknowledged is missing.
// Then either room returns (the limit is raised on the running server: writes succeed again) or
// the server is stopped while still full (its vector index cannot be saved). Either way the
// directory verifies clean and a restart without the limit holds every acknowledged write.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { between, seededRandom, type Random } from "./random.js";
import { post, serve, verifyDir, type Reply } from "./strand-child.js";

export interface DiskFullSummary {
  runs: number;
  /** Runs done; less than `runs` only when stopped early. */
  done: number;
  seed: number;
  acknowledgedWrites: number;
  storageFull: number;
  readsWhileFull: number;
  recovered: number;
  stoppedWhileFull: number;
  findings: string[];
}

const isStorageFull = (r: Reply): boolean => {
  const body = r.body as { error?: unknown; code?: unknown } | null;
  return r.status === 507 && body?.code === "STORAGE_FULL" && typeof body.error === "string" && Object.keys(body).length === 2;
};

function writeRequest(random: Random, key: string): { query: string; params: unknown; keys: string[]; vec?: string } {
  const r = random();
  const text = (size: number): string => `w${key} ${"lorem ipsum dolor ".repeat(size / 18)}`;
  if (r < 0.2) {
    const items = Array.from({ length: between(random, 2, 10) }, (_, i) => ({ key: `${key}i${i}`, grp: i, text: text(2000), n: i }));
    return { query: "Ingest", params: { items }, keys: items.map((i) => i.key) };
  }
  if (r < 0.4) return { query: "AddVec", params: { v: Array.from({ length: 8 }, () => random() - 0.5), key }, keys: [], vec: key };
  return { query: "AddItem", params: { key, grp: between(random, 0, 16), text: text(between(random, 1000, 20000)), n: 1 }, keys: [key] };
}

export async function runDiskFull(options: {
  runs: number;
  seed: number;
  log?: (line: string) => void;
  stopped?: () => boolean;
}): Promise<DiskFullSummary> {
  const random = seededRandom(options.seed);
  const s: DiskFullSummary = {
    runs: options.runs,
    done: 0,
    seed: options.seed,
    acknowledgedWrites: 0,
    storageFull: 0,
    readsWhileFull: 0,
    recovered: 0,
    stoppedWhileFull: 0,
    findings: [],
  };
  for (let run = 0; run < options.runs && options.stopped?.() !== true; run++) {
    s.done = run + 1;
    const dataDir = mkdtempSync(join(tmpdir(), "strand-campaign-full-"));
    const limit = 1024 * 1024 + between(random, 64 * 1024, 3 * 1024 * 1024);
    const finding = (m: string): void => void s.findings.push(`run ${run} (limit ${limit}): ${m}`);
    const keys: string[] = [];
    const vecs: string[] = [];
    try {
      const server = await serve({ dataDir, wrapper: ["prlimit", `--fsize=${limit}:unlimited`] });
      let full = 0;
      const write = async (n: number): Promise<Reply> => {
        const request = writeRequest(random, `r${run}n${n}`);
        const reply = await post(server.url, request.query, request.params);
        if (reply.status === 200) {
          s.acknowledgedWrites++;
          keys.push(...request.keys);
          if (request.vec !== undefined) vecs.push(request.vec);
        } else if (isStorageFull(reply)) full++;
        else finding(`${request.query} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
        return reply;
      };
      let n = 0;
      while (full === 0 && n < 3000) await write(n++);
      if (full === 0) finding("the store never filled up");
      for (let i = 0; i < 20; i++) await write(n++); // full: 507s (or 200s for what still fits)
      s.storageFull += full;
      if (!server.alive()) finding(`the server exited while full:\n${server.output()}`);
      const health = await fetch(`${server.url}/health`);
      if (health.status !== 200) finding(`/health → ${health.status}`);
      const count = await post(server.url, "CountItems", {});
      if ((count.body as { total?: number }).total !== keys.length)
        finding(`CountItems while full: ${JSON.stringify(count)}, acknowledged ${keys.length}`);
      for (const key of keys.slice(-5)) {
        const reply = await post(server.url, "ByKey", { key });
        if ((reply.body as { item?: { key?: string } }).item?.key !== key) finding(`ByKey ${key} while full: ${JSON.stringify(reply)}`);
      }
      s.readsWhileFull += 6;
      const stopFull = run % 2 === 1;
      if (stopFull) s.stoppedWhileFull++;
      else {
        spawnSync("prlimit", ["--pid", String(server.child.pid), "--fsize=unlimited:unlimited"]);
        full = 0;
        for (let i = 0; i < 10; i++) if ((await write(n++)).status !== 200) finding("a write failed after room returned");
        if (full === 0) s.recovered++;
      }
      const code = await server.stop();
      if (code !== 0) finding(`serve exited ${code} on SIGTERM:\n${server.output().slice(-2000)}`);
      const verified = verifyDir(dataDir);
      if (!verified.ok) finding(`strand verify: ${verified.output}`);
      const again = await serve({ dataDir });
      try {
        const items = (await post(again.url, "AllItems", {})).body as { items: { key: string }[] };
        const have = new Set(items.items.map((i) => i.key));
        const lost = keys.filter((k) => !have.has(k));
        if (lost.length > 0) finding(`after a restart ${lost.length} acknowledged items are missing: ${lost.slice(0, 5).join(", ")}`);
        const saved = (await post(again.url, "AllVecs", {})).body as { vecs: { key: string }[] };
        const haveVecs = new Set(saved.vecs.map((v) => v.key));
        const lostVecs = vecs.filter((k) => !haveVecs.has(k));
        if (lostVecs.length > 0) finding(`after a restart ${lostVecs.length} acknowledged vectors are missing`);
        if (vecs.length > 0) {
          const v = (await post(again.url, "Nearest", { v: [1, 0, 0, 0, 0, 0, 0, 0], k: 1 })).status;
          if (v !== 200) finding(`SearchV after the restart → ${v}`);
        }
      } finally {
        await again.stop();
      }
    } catch (error) {
      finding(`campaign error: ${(error as Error).message}`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    options.log?.(
      `run ${run + 1}/${options.runs}: ${s.acknowledgedWrites} writes acknowledged, ${s.storageFull} 507s, ${s.findings.length} findings`,
    );
  }
  return s;
}
