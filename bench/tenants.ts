// Tenants (issue 34 item 1), on `strand serve` of the bench project with an api key:
//   1. memory: the server's RSS right after start (an empty server), then after N tenants of 100
//      records each were written and closed again as idle (`--tenant-idle 1`); once with glibc's
//      allocator as it comes, once tuned to give freed blocks back (TUNED_MALLOC): each open
//      tenant's LMDB environment allocates a few MB, and glibc keeps what tenants closing free;
//      measured once every tenant is closed, and again after `settleSeconds` with no request (the
//      server gives back what closed tenants freed once no tenant request came for a sweep
//      interval: server/tenants/idle-release.ts);
//   2. the first request to an idle tenant (it opens the tenant's store): p50, p99, max;
//   3. on a second server (tenants stay open): a point read of the project's own graph vs the same
//      read of an open tenant, blocks alternating, server CPU per request.
// Targets: idle RSS ≤ 1.5× the empty server's (plus the read cache, which starts empty here); the
// first request to an idle tenant ≤ 20 ms p99; a request to an open tenant ≤ 1.1× the default's.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { measureBlocks, measureOf, type RequestSide, renderSides } from "./request-blocks.js";
import { BENCH_PROJECT, startStrand } from "./servers.js";
import { quantileSorted } from "./stats.js";

export const TENANT_IDLE_MEMORY_TARGET = 1.5;
export const TENANT_FIRST_REQUEST_P99_MS = 20;
export const TENANT_OPEN_TARGET = 1.1;
const RECORDS_EACH = 100;
const KEY = "tenant-bench-key-0123456789";

const KINDS = ["default read", "tenant read"] as const;
type Kind = (typeof KINDS)[number];

/** One server's run: written, every tenant closed as idle, then first requests. */
export interface TenantMemory {
  /** "glibc defaults", or "tuned" (TUNED_MALLOC in the server's environment) */
  malloc: string;
  fillSeconds: number;
  emptyRssMb: number;
  /** Once every tenant is closed. */
  idleRssMb: number;
  /** After `settleSeconds` more with no request. */
  settledRssMb: number;
  settleSeconds: number;
  firstRequest: { p50Ms: number; p99Ms: number; maxMs: number; samples: number };
}

export interface TenantsResult {
  tenants: number;
  recordsEach: number;
  memory: TenantMemory[];
  sides: RequestSide<Kind>[];
  /** Tenant ÷ default, by server CPU per request. */
  openRatio: number;
}

function rssMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb === undefined ? 0 : Number(kb) / 1024;
}

/** glibc's allocator tuned so freed blocks go back to the system (README, Tenants: memory). */
export const TUNED_MALLOC: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "65536", MALLOC_TRIM_THRESHOLD_: "65536" };

type Post = (url: string, path: string, body: unknown, method?: string) => Promise<unknown>;

const post: Post = async (url, path, body, method = "POST") => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
    ...(method === "GET" ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`tenants bench: ${path} answered ${res.status} ${JSON.stringify(answer)}`);
  return answer;
};

/** Writes the tenants, waits until every one is closed as idle, then opens some by a first request. */
async function idlePhase(
  settleSeconds: number,
  tenants: number,
  root: string,
  malloc: string,
  env: Readonly<Record<string, string>>,
  log: (line: string) => void,
): Promise<TenantMemory> {
  const dataDir = mkdtempSync(join(root, "tenants-"));
  const server = await startStrand(dataDir, null, BENCH_PROJECT, undefined, true, ["--api-key", KEY, "--tenant-idle", "1"], env);
  try {
    for (let i = 0; i < 20; i++) await post(server.url, "/query", { query: "N<Item>::COUNT" });
    const emptyRssMb = rssMb(server.child.pid);
    const fill = {
      // A whole QUERY, compiled once for every tenant: its list is declared, not inferred per request.
      query: 'QUERY Fill(ns: [I64]) =>\n  FOR n IN ns {\n    AddN<Item>({name: "item", n: n})\n  }\n  RETURN NONE',
      params: { ns: Array.from({ length: RECORDS_EACH }, (_, i) => i) },
    };
    const started = performance.now();
    for (let t = 0; t < tenants; t++) {
      await post(server.url, `/tenants/t${t}`, null);
      await post(server.url, `/t/t${t}/query`, fill);
      if ((t + 1) % 1000 === 0) log(`tenants (${malloc}): ${t + 1} of ${tenants} written`);
    }
    const fillSeconds = (performance.now() - started) / 1000;
    // Every tenant idle and closed: wait until the server says none is open.
    for (;;) {
      const listed = (await post(server.url, "/tenants", null, "GET")) as { tenants: { open: boolean }[] };
      if (listed.tenants.every((t) => !t.open)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const idleRssMb = rssMb(server.child.pid);
    // No request meanwhile: one would count as activity and put V8's memory reducer off.
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    const settledRssMb = rssMb(server.child.pid);
    const samples = Math.min(200, tenants);
    const firstMs: number[] = [];
    for (let t = 0; t < samples; t++) {
      const start = performance.now();
      const answer = (await post(server.url, `/t/t${t}/query`, { query: "N<Item>::COUNT" })) as { result: number };
      firstMs.push(performance.now() - start);
      if (answer.result !== RECORDS_EACH) throw new Error(`tenants bench: t${t} holds ${answer.result} records`);
    }
    firstMs.sort((a, b) => a - b);
    return {
      malloc,
      fillSeconds,
      emptyRssMb,
      idleRssMb,
      settledRssMb,
      settleSeconds,
      firstRequest: {
        p50Ms: quantileSorted(firstMs, 0.5),
        p99Ms: quantileSorted(firstMs, 0.99),
        maxMs: firstMs[firstMs.length - 1]!,
        samples,
      },
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runTenantsBench(settings: {
  tenants: number;
  calls: number;
  root: string;
  /** How long the idle server is left alone before its memory is measured again (default 60 s). */
  settleSeconds?: number;
  log: (line: string) => void;
}): Promise<TenantsResult> {
  const settle = settings.settleSeconds ?? 60;
  const memory = [
    await idlePhase(settle, settings.tenants, settings.root, "glibc defaults", {}, settings.log),
    await idlePhase(settle, settings.tenants, settings.root, "tuned", TUNED_MALLOC, settings.log),
  ];
  // Open tenants: the default idle time keeps t0 open through the blocks.
  const openDir = mkdtempSync(join(settings.root, "tenants-open-"));
  const open = await startStrand(openDir, null, BENCH_PROJECT, undefined, true, ["--api-key", KEY]);
  try {
    const own = (await post(open.url, "/AddItem", { name: "own", n: 1 })) as { item: { id: string } };
    const tenant = (await post(open.url, "/t/t0/AddItem", { name: "tenant", n: 1 })) as { item: { id: string } };
    const call: Record<Kind, () => Promise<unknown>> = {
      "default read": () => post(open.url, "/GetItem", { id: own.item.id }),
      "tenant read": () => post(open.url, "/t/t0/GetItem", { id: tenant.item.id }),
    };
    for (const kind of KINDS) for (let i = 0; i < 50; i++) await call[kind]();
    const sides = await measureBlocks(KINDS, call, settings.calls, open.child.pid);
    const openRatio = measureOf(sides, "tenant read") / measureOf(sides, "default read");
    const rows = memory
      .map(
        (m) =>
          `${m.malloc} ${m.idleRssMb.toFixed(0)} MB idle (${m.settledRssMb.toFixed(0)} MB ${m.settleSeconds} s later) vs ${m.emptyRssMb.toFixed(0)} MB empty`,
      )
      .join("; ");
    settings.log(`tenants: ${settings.tenants}: ${rows}; open tenant ${openRatio.toFixed(2)}x`);
    return { tenants: settings.tenants, recordsEach: RECORDS_EACH, memory, sides, openRatio };
  } finally {
    await open.stop();
    rmSync(openDir, { recursive: true, force: true });
  }
}

export function renderTenants(r: TenantsResult): string {
  const pass = (ok: boolean): string => (ok ? "PASS" : "MISS");
  const lines = [
    `Tenants: ${r.tenants} tenants of ${r.recordsEach} records each, written over HTTP one tenant at a time (--tenant-idle 1)`,
  ];
  for (const m of r.memory) {
    const ratio = m.idleRssMb / m.emptyRssMb;
    const settled = m.settledRssMb / m.emptyRssMb;
    const env =
      m.malloc === "tuned"
        ? ` (${Object.entries(TUNED_MALLOC)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ")})`
        : "";
    lines.push(
      `  malloc ${m.malloc}${env}: written in ${m.fillSeconds.toFixed(1)} s; RSS with every tenant idle vs the empty server's ${m.emptyRssMb.toFixed(0)} MB: once all closed ${m.idleRssMb.toFixed(0)} MB, ${ratio.toFixed(2)}x (target <= ${TENANT_IDLE_MEMORY_TARGET}: ${pass(ratio <= TENANT_IDLE_MEMORY_TARGET)}); ${m.settleSeconds} s later ${m.settledRssMb.toFixed(0)} MB, ${settled.toFixed(2)}x (${pass(settled <= TENANT_IDLE_MEMORY_TARGET)})`,
      `    first request to an idle tenant (opens its store), ${m.firstRequest.samples} tenants: p50 ${m.firstRequest.p50Ms.toFixed(1)} ms, p99 ${m.firstRequest.p99Ms.toFixed(1)} ms, max ${m.firstRequest.maxMs.toFixed(1)} ms (target p99 <= ${TENANT_FIRST_REQUEST_P99_MS} ms: ${pass(m.firstRequest.p99Ms <= TENANT_FIRST_REQUEST_P99_MS)})`,
    );
  }
  lines.push(
    ...renderSides(
      "  a point read, the project's own graph vs an open tenant (one request at a time; server CPU per request from /proc)",
      r.sides,
    ),
    `  open tenant / default ${r.openRatio.toFixed(2)}x (target <= ${TENANT_OPEN_TARGET}: ${pass(r.openRatio <= TENANT_OPEN_TARGET)})`,
  );
  return lines.join("\n");
}
