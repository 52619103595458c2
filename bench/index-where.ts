// WHERE through an INDEX against the same WHERE as a full scan, in process (issue 11): `--index-nodes`
// `N::Person` records carry each value twice, in an INDEX field and in a plain one (`city` and
// `town`, `age` and `years`), so the two queries of a pair select the same records and differ only
// in whether the compiler can hand the condition to the index. Both are the generated query
// modules, loaded as `strand serve` loads them; blocks of the two alternate (scan.ts timeBoth).
import { join } from "node:path";
import { evaluateQueryModule } from "../cli/project/query-modules.js";
import { compileQueryScripts } from "../compiler/scripts.js";
import type { QueryModule } from "../core/query-module.js";
import { GraphStore } from "../runtime/graph-store.js";
import { randomIndex, seededRandom } from "./random.js";
import { CITIES } from "./scan-data.js";
import { type CallStats, stats, timeBoth } from "./scan.js";

const PROJECT = `
N::Person { name: String, INDEX city: String, town: String, INDEX age: U32, years: U32 }
QUERY IndexEq(city: String) => people <- N<Person>::WHERE(_::{city}::EQ(city)) RETURN people
QUERY ScanEq(city: String) => people <- N<Person>::WHERE(_::{town}::EQ(city)) RETURN people
QUERY IndexRange(lo: U32, hi: U32) => people <- N<Person>::WHERE(AND(_::{age}::GTE(lo), _::{age}::LT(hi))) RETURN people
QUERY ScanRange(lo: U32, hi: U32) => people <- N<Person>::WHERE(AND(_::{years}::GTE(lo), _::{years}::LT(hi))) RETURN people
`;

/** The pairs timed: an indexed query, its scanning twin and their parameters. */
const PAIRS = [
  { indexed: "IndexEq", scan: "ScanEq", params: { city: "Lyon" } },
  { indexed: "IndexRange", scan: "ScanRange", params: { lo: 40, hi: 41 } },
] as const;

export interface IndexWhereSettings {
  dir: string;
  nodes: number;
  samples: number;
  warmup: number;
  seed: number;
  log: (line: string) => void;
}

export interface IndexWhereQuery {
  query: string;
  params: Record<string, unknown>;
  rows: number;
  indexed: CallStats;
  scan: CallStats;
  /** scan mean / indexed mean. */
  speedup: number;
}

export interface IndexWhereResult {
  nodes: number;
  samples: number;
  queries: IndexWhereQuery[];
}

async function loadQueries(): Promise<{
  schema: NonNullable<ReturnType<typeof compileQueryScripts>["schema"]>;
  modules: Map<string, QueryModule>;
}> {
  const result = compileQueryScripts([{ file: "index-where.hx", text: PROJECT }]);
  if (!result.ok || result.schema === null)
    throw new Error(`the index-where bench project does not compile: ${result.diagnostics[0]?.message}`);
  const modules = new Map<string, QueryModule>();
  for (const f of result.files) {
    const m = /^queries\/(\w+)\.js$/.exec(f.path);
    if (m) modules.set(m[1]!, await evaluateQueryModule(f.path, f.text));
  }
  return { schema: result.schema, modules };
}

export async function runIndexWhere(settings: IndexWhereSettings): Promise<IndexWhereResult> {
  const { schema, modules } = await loadQueries();
  const store = GraphStore.open({ path: join(settings.dir, "index-where"), schema });
  try {
    const random = seededRandom(settings.seed);
    for (let start = 0; start < settings.nodes; start += 10_000) {
      const count = Math.min(10_000, settings.nodes - start);
      await store.write((db) => {
        for (let k = 0; k < count; k++) {
          const city = CITIES[randomIndex(random, CITIES.length)]!;
          const age = randomIndex(random, 100);
          db.addNode("Person", { name: `person ${start + k}`, city, town: city, age, years: age });
        }
      });
    }
    const queries: IndexWhereQuery[] = [];
    for (const pair of PAIRS) {
      const run = (name: string) => (): { people: unknown[] } =>
        store.read((db) => modules.get(name)!.run(db, { ...pair.params }) as { people: unknown[] });
      const indexed = run(pair.indexed);
      const scan = run(pair.scan);
      const rows = indexed().people.length;
      if (JSON.stringify(indexed()) !== JSON.stringify(scan())) throw new Error(`${pair.indexed} and ${pair.scan} differ`);
      const times = timeBoth(indexed, scan, settings.samples, settings.warmup);
      const i = stats(times.strand);
      const s = stats(times.floor);
      queries.push({ query: pair.indexed, params: { ...pair.params }, rows, indexed: i, scan: s, speedup: s.meanUs / i.meanUs });
      settings.log(
        `index WHERE: ${pair.indexed} ${rows} rows of ${settings.nodes}: index ${i.meanUs.toFixed(0)} us, scan ${s.meanUs.toFixed(0)} us per call`,
      );
    }
    return { nodes: settings.nodes, samples: settings.samples, queries };
  } finally {
    await store.close();
  }
}
