// search_nodes of `strand memory` against the reference MCP memory server
// (@modelcontextprotocol/server-memory), issue 35: both over stdio through the official SDK
// client, loaded with the same `entities` (default 10,000; 3 observations of 5 words each from a
// 2,000-word vocabulary, drawn with a Zipf-like skew so some words are common and most rare).
// Queries, in alternating order: for each of `queries` target entities, one rare word of it and
// two words of it from different observations (how an agent asks: words, not a verbatim
// phrase). Reported per server and query kind: p50/p99 latency per call as the client sees it,
// the share of queries that found the target, and the mean reciprocal rank of the target (0 when
// not found; the reference returns matches in creation order, Strand by BM25).
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO_ROOT } from "../scripts/campaign/strand-child.js";
import { seededRandom, type Random } from "./random.js";
import { quantileSorted } from "./stats.js";

const VOCABULARY = 2_000;
const BATCH = 500;

export interface MemorySearchRow {
  server: "reference" | "strand";
  query: "one word" | "two words";
  p50Ms: number;
  p99Ms: number;
  /** share of queries whose answer held the target entity */
  found: number;
  /** mean reciprocal rank of the target (0 when absent) */
  mrr: number;
}

export interface MemorySearchSettings {
  entities: number;
  queries: number;
  seed: number;
  log: (line: string) => void;
}

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

/** word i of the vocabulary drawn with probability ∝ 1/(i+1) (a Zipf-like skew). */
function zipfWord(random: Random): string {
  const h = Math.log(VOCABULARY + 1);
  return `w${Math.min(VOCABULARY - 1, Math.floor(Math.exp(random() * h)) - 1)}`;
}

function entities(random: Random, count: number): Entity[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `entity-${i}`,
    entityType: ["person", "place", "project", "tool", "event"][i % 5]!,
    observations: Array.from({ length: 3 }, () => Array.from({ length: 5 }, () => zipfWord(random)).join(" ")),
  }));
}

async function start(command: string, args: string[], env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "ignore",
    cwd: REPO_ROOT,
  });
  const client = new Client({ name: "strand-bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The entity names of a search_nodes answer, in its order. */
async function search(client: Client, query: string): Promise<string[]> {
  const result = (await client.callTool({ name: "search_nodes", arguments: { query } })) as {
    structuredContent?: { entities?: { name: string }[] };
  };
  return (result.structuredContent?.entities ?? []).map((e) => e.name);
}

export async function runMemorySearch(settings: MemorySearchSettings): Promise<MemorySearchRow[]> {
  const random = seededRandom(settings.seed);
  const graph = entities(random, settings.entities);
  const dir = mkdtempSync(join(tmpdir(), "strand-bench-memory-"));
  const reference = createRequire(join(REPO_ROOT, "package.json")).resolve("@modelcontextprotocol/server-memory/dist/index.js");
  const servers: { name: MemorySearchRow["server"]; client: Client }[] = [];
  try {
    servers.push({
      name: "reference",
      client: await start(process.execPath, [reference], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") }),
    });
    servers.push({
      name: "strand",
      client: await start(process.execPath, [join(REPO_ROOT, "dist/cli/strand.js"), "memory", "--data", join(dir, "strand")], {}),
    });
    for (const { name, client } of servers) {
      settings.log(`memory search: loading ${graph.length} entities into ${name}`);
      for (let i = 0; i < graph.length; i += BATCH)
        await client.callTool({ name: "create_entities", arguments: { entities: graph.slice(i, i + BATCH) } });
    }
    // Targets and their queries: a word of the target that few entities hold, and two words from
    // two of its observations.
    const counts = new Map<string, number>();
    for (const e of graph) for (const w of new Set(e.observations.join(" ").split(" "))) counts.set(w, (counts.get(w) ?? 0) + 1);
    const cases: { kind: MemorySearchRow["query"]; text: string; target: string }[] = [];
    for (let q = 0; q < settings.queries; q++) {
      const target = graph[Math.floor(random() * graph.length)]!;
      const words = target.observations.map((o) => o.split(" "));
      const rare = [...new Set(words.flat())].sort((a, b) => counts.get(a)! - counts.get(b)!)[0]!;
      cases.push({ kind: "one word", text: rare, target: target.name });
      cases.push({
        kind: "two words",
        text: `${words[0]![Math.floor(random() * 5)]} ${words[2]![Math.floor(random() * 5)]}`,
        target: target.name,
      });
    }
    const times = new Map<string, number[]>();
    const rr = new Map<string, number[]>();
    for (const [i, c] of cases.entries()) {
      // Alternate which server goes first, so drift hits both alike.
      const order = i % 2 === 0 ? servers : [...servers].reverse();
      for (const { name, client } of order) {
        const t0 = performance.now();
        const names = await search(client, c.text);
        const ms = performance.now() - t0;
        const key = `${name}|${c.kind}`;
        (times.get(key) ?? times.set(key, []).get(key)!).push(ms);
        const rank = names.indexOf(c.target);
        (rr.get(key) ?? rr.set(key, []).get(key)!).push(rank < 0 ? 0 : 1 / (rank + 1));
      }
    }
    const rows: MemorySearchRow[] = [];
    for (const server of ["reference", "strand"] as const)
      for (const query of ["one word", "two words"] as const) {
        const key = `${server}|${query}`;
        const t = [...times.get(key)!].sort((a, b) => a - b);
        const r = rr.get(key)!;
        rows.push({
          server,
          query,
          p50Ms: Math.round(quantileSorted(t, 0.5) * 10) / 10,
          p99Ms: Math.round(quantileSorted(t, 0.99) * 10) / 10,
          found: r.filter((x) => x > 0).length / r.length,
          mrr: r.reduce((a, b) => a + b, 0) / r.length,
        });
      }
    return rows;
  } finally {
    for (const { client } of servers) await client.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderMemorySearch(rows: readonly MemorySearchRow[], entities: number): string {
  const lines = [`search_nodes over ${entities} entities, strand memory vs @modelcontextprotocol/server-memory (stdio, SDK client)`];
  lines.push("  server     query       p50 ms  p99 ms  target found  MRR");
  for (const r of rows)
    lines.push(
      `  ${r.server.padEnd(9)}  ${r.query.padEnd(10)}  ${r.p50Ms.toFixed(1).padStart(6)}  ${r.p99Ms.toFixed(1).padStart(6)}  ${`${(r.found * 100).toFixed(0)}%`.padStart(12)}  ${r.mrr.toFixed(3)}`,
    );
  return lines.join("\n");
}
