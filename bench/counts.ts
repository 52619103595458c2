// COUNT over adjacency against SQLite (issue 16 item 3), in process and side by side: on the
// traversal bench's graph (Items with `fanout` Link out-edges each), the generated query modules
// of bench/project/queries.hx inside `store.read`, against better-sqlite3 on the same graph (the
// same nodes and edges, keyed by INTEGER PRIMARY KEY as a SQLite user would key them, each node's
// UUID beside it; WAL, synchronous=FULL, an index on edges (src, dst)), one prepared statement per
// call. The ratio is of medians (p50): a shared machine's stalls land in the means. Rows:
//   - 1-hop COUNT   `N<Item>(id)::Out<Link>::COUNT` vs SELECT COUNT(*) .. WHERE src = ?
//   - 2-hop COUNT   `N<Item>(id)::Out<Link>::Out<Link>::COUNT` vs the self-join's COUNT(*)
//   - 2-hop records `N<Item>(id)::Out<Link>::Out<Link>` vs the self-join joined to the nodes
//   - 2-hop COUNT as it was compiled before adjacency counts (`db.count(db.out(db.out(..)))`,
//     reading every record), against the same SQLite COUNT, for reference.
// Each SQLite statement also requires the start node to exist, as `N<Item>(id)` does (404).
// Answers are checked equal on every start node before timing; blocks of calls alternate sides.
import { join } from "node:path";
import type { Database as SqliteDatabase } from "better-sqlite3";
import { openDurableSqlite } from "./sqlite.js";
import type { QueryModule } from "../core/query-module.js";
import type { GraphStore } from "../runtime/graph-store.js";
import { compileQueryScripts } from "../compiler/scripts.js";
import { evaluateQueryModule } from "../cli/project/query-modules.js";
import type { Graph } from "./fill.js";
import { ITEM, LINK, benchSources } from "./project.js";
import { randomIndex, type Random } from "./random.js";
import { mean, quantileSorted } from "./stats.js";

const BLOCK = 200;
const SQLITE_BATCH = 50_000;

export interface CountCallStats {
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

export interface CountRow {
  name: string;
  /** mean answer per call (a count, or the rows returned) */
  perCall: number;
  strand: CountCallStats;
  sqlite: CountCallStats;
  /** strand p50 / sqlite p50 */
  ratio: number;
}

export interface CountsResult {
  samples: number;
  sqliteBuildSeconds: number;
  rows: CountRow[];
}

/** Target (issue 16): 1-hop and 2-hop COUNT within this many times SQLite's time per call. */
export const COUNT_TARGET_RATIO = 1.5;

export interface CountsSettings {
  store: GraphStore;
  graph: Graph;
  dir: string;
  samples: number;
  warmup: number;
  random: Random;
  log: (line: string) => void;
}

type Call = (id: string) => number;

function stats(micros: Float64Array): CountCallStats {
  const sorted = Float64Array.from(micros).sort();
  return { meanUs: mean(micros), p50Us: quantileSorted(sorted, 0.5), p99Us: quantileSorted(sorted, 0.99) };
}

async function countQueries(): Promise<Map<string, QueryModule>> {
  const result = compileQueryScripts(benchSources());
  const modules = new Map<string, QueryModule>();
  for (const name of ["CountOut", "CountTwoHop", "TwoHop"]) {
    const file = result.files.find((f) => f.path === `queries/${name}.js`);
    if (file === undefined) throw new Error(`bench/project: no generated query ${name}`);
    modules.set(name, await evaluateQueryModule(file.path, file.text));
  }
  return modules;
}

async function buildSqlite(path: string, graph: Graph): Promise<SqliteDatabase> {
  const db = await openDurableSqlite(path);
  // Node i is row i + 1; its UUID is kept (unique) as an application keeps its external id.
  db.exec("CREATE TABLE nodes (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, label TEXT NOT NULL, name TEXT, n INTEGER)");
  db.exec("CREATE TABLE edges (id INTEGER PRIMARY KEY, label TEXT NOT NULL, src INTEGER NOT NULL, dst INTEGER NOT NULL)");
  db.exec("CREATE INDEX edges_src ON edges (src, dst)");
  const addNode = db.prepare("INSERT INTO nodes (id, uuid, label, name, n) VALUES (?, ?, ?, ?, ?)");
  const addEdge = db.prepare("INSERT INTO edges (label, src, dst) VALUES (?, ?, ?)");
  const { ids, fanout, targets } = graph;
  const nodes = db.transaction((start: number, end: number) => {
    for (let i = start; i < end; i++) addNode.run(i + 1, ids[i], ITEM, `item ${i}`, i);
  });
  const edges = db.transaction((start: number, end: number) => {
    for (let e = start; e < end; e++) addEdge.run(LINK, Math.floor(e / fanout) + 1, targets[e]! + 1);
  });
  for (let s = 0; s < ids.length; s += SQLITE_BATCH) nodes(s, Math.min(ids.length, s + SQLITE_BATCH));
  for (let s = 0; s < targets.length; s += SQLITE_BATCH) edges(s, Math.min(targets.length, s + SQLITE_BATCH));
  db.exec("ANALYZE");
  return db;
}

export async function runCounts(settings: CountsSettings): Promise<CountsResult> {
  const { store, graph, random } = settings;
  const queries = await countQueries();
  const t0 = performance.now();
  const sqlite = await buildSqlite(join(settings.dir, "graph.sqlite"), graph);
  const sqliteBuildSeconds = (performance.now() - t0) / 1000;
  settings.log(`counts: SQLite graph built in ${sqliteBuildSeconds.toFixed(1)} s`);
  try {
    const exists = "EXISTS (SELECT 1 FROM nodes WHERE id = @id)";
    const count1 = sqlite.prepare(`SELECT (SELECT COUNT(*) FROM edges WHERE src = @id) WHERE ${exists}`).pluck();
    const count2 = sqlite
      .prepare(`SELECT (SELECT COUNT(*) FROM edges a JOIN edges b ON b.src = a.dst WHERE a.src = @id) WHERE ${exists}`)
      .pluck();
    const records2 = sqlite.prepare(
      `SELECT n.uuid, n.label, n.name, n.n FROM edges a JOIN edges b ON b.src = a.dst JOIN nodes n ON n.id = b.dst WHERE a.src = @id AND ${exists}`,
    );
    // SQLite is called with the node's integer key, as an application keyed that way calls it.
    const rowOf = new Map(graph.ids.map((id, i) => [id, i + 1]));
    const row = (id: string): number => rowOf.get(id)!;
    const run = (name: string) => {
      const q = queries.get(name)!;
      return (id: string) => store.read((db) => q.run(db, { id })) as Record<string, unknown>;
    };
    const countOut = run("CountOut");
    const countTwo = run("CountTwoHop");
    const twoHop = run("TwoHop");
    const cases: Array<{ name: string; strand: Call; sqlite: Call }> = [
      { name: "1-hop COUNT", strand: (id) => countOut(id).n as number, sqlite: (id) => count1.get({ id: row(id) }) as number },
      { name: "2-hop COUNT", strand: (id) => countTwo(id).n as number, sqlite: (id) => count2.get({ id: row(id) }) as number },
      {
        name: "2-hop full records",
        strand: (id) => (twoHop(id).items as unknown[]).length,
        sqlite: (id) => records2.all({ id: row(id) }).length,
      },
      {
        name: "2-hop COUNT reading records (before)",
        strand: (id) => store.read((db) => db.count(db.out(db.out([db.nodeById(ITEM, id)], LINK), LINK))),
        sqlite: (id) => count2.get({ id: row(id) }) as number,
      },
    ];
    const total = settings.warmup + settings.samples;
    const starts = Array.from({ length: total }, () => graph.ids[randomIndex(random, graph.ids.length)]!);
    const rows: CountRow[] = [];
    for (const c of cases) {
      // Same answer on every start node, warm-up included, before anything is timed.
      let answers = 0;
      for (const id of starts) {
        const a = c.strand(id);
        const b = c.sqlite(id);
        if (a !== b) throw new Error(`counts: ${c.name} from ${id}: Strand answered ${a}, SQLite ${b}`);
        answers += a;
      }
      const strandUs = new Float64Array(settings.samples);
      const sqliteUs = new Float64Array(settings.samples);
      for (let block = 0; block < settings.samples; block += BLOCK) {
        const end = Math.min(settings.samples, block + BLOCK);
        const order = (block / BLOCK) % 2 === 0 ? [0, 1] : [1, 0];
        for (const side of order) {
          const call = side === 0 ? c.strand : c.sqlite;
          const into = side === 0 ? strandUs : sqliteUs;
          for (let s = block; s < end; s++) {
            const id = starts[settings.warmup + s]!;
            const t = process.hrtime.bigint();
            call(id);
            into[s] = Number(process.hrtime.bigint() - t) / 1000;
          }
        }
      }
      const strand = stats(strandUs);
      const sqliteStats = stats(sqliteUs);
      rows.push({ name: c.name, perCall: answers / total, strand, sqlite: sqliteStats, ratio: strand.p50Us / sqliteStats.p50Us });
      settings.log(`counts: ${c.name}: Strand ${strand.meanUs.toFixed(1)} us, SQLite ${sqliteStats.meanUs.toFixed(1)} us per call`);
    }
    return { samples: settings.samples, sqliteBuildSeconds, rows };
  } finally {
    sqlite.close();
  }
}

export function renderCounts(result: CountsResult): string {
  const lines = [
    `COUNT over adjacency vs SQLite (in process, ${result.samples.toLocaleString("en-US")} calls per side; target: COUNT <= ${COUNT_TARGET_RATIO}x SQLite)`,
    "  query                                   per call   Strand mean/p50/p99 us     SQLite mean/p50/p99 us     ratio (p50)",
  ];
  for (const r of result.rows) {
    const f = (s: CountCallStats) => `${s.meanUs.toFixed(1)}/${s.p50Us.toFixed(1)}/${s.p99Us.toFixed(1)}`.padEnd(26);
    lines.push(`  ${r.name.padEnd(40)}${r.perCall.toFixed(1).padStart(8)}   ${f(r.strand)} ${f(r.sqlite)} ${r.ratio.toFixed(2)}x`);
  }
  return lines.join("\n");
}
