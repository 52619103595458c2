// Stored records are made to fit the project's schema when a store opens, before anything is
// served or any index is loaded. Two things can make them not fit:
//
// - Migrations: a project whose `schema::N` is newer than the data's. The chain (stored version →
//   ... → current) rewrites every record of each type a MIGRATION item names.
// - Changed definitions: meta "schema_types" holds the definition of every type as the data was
//   last opened with (see keys.ts). A type whose definition differs now (a field added, removed,
//   retyped, (un)indexed, a DEFAULT, an edge's From/To/UNIQUE), with or without versions, has its
//   records revalidated. A store that holds records but no "schema_types" (written before it
//   existed) has every type revalidated once.
//
// Before either, records of a type the schema no longer declares (node, edge or vector type)
// refuse the open, with nothing written: they would be unreachable, and nothing is dropped silently.
//
// Both happen in ONE write transaction: records are checked against the current definition
// (fields in declaration order, defaults filled for absent fields), their index / unique /
// edge-unique entries rebuilt, and the BM25 marker dropped when a text-bearing record changed so
// the keyword index rebuilds. Anything that does not fit aborts the transaction and the store
// refuses to open, naming the type, record, field and value, and how to convert it: nothing is
// ever dropped or altered to fit, and the data stays as it was (the previous project can still
// open it). Only a MIGRATION item drops fields: the fields the type does not declare in that
// migration's target version (the item's `declared`), so over a chain a field a later version
// removes is dropped only by that later step's item, else the record refuses the open.
//
// meta "schema_version" holds the version the data is at. A store without it that already holds
// records predates versioning and is taken to be at the oldest version the migrations start from.
//
// The files: plan.ts (what to do, read only), mappings.ts (MIGRATION items), revalidate.ts,
// definitions.ts (meta "schema_types"), advice.ts (the refusal messages). Every write goes through
// the graph writer (runtime/write/).
//
// The transaction commits before GraphStore.open loads the indexes: they must describe the
// migrated records, and loading the HNSW indexes first would read vectors from where the new schema
// keeps them before the migration had checked that they are there. Should loading an index then
// throw, the open fails with the migration committed: records and schema meta at the new schema,
// the HNSW files and `vector_types` as before (a migration never changes them), the BM25 marker
// gone if stored text changed. Opening again with the same project does no migration work and
// only retries the indexes.
import { silentProgress, type ProgressSink, type ProgressTask } from "../../core/progress.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { edgeCount } from "../records/edge-records.js";
import type { StoreDbs } from "../store/dbs.js";
import type { ReadCache } from "../store/read-cache.js";
import type { SchemaInfo } from "../store/schema-info.js";
import { MigrationWriter } from "../write/migration-writer.js";
import { forgetBm25Marker } from "../search/bm25-marker.js";
import { SCHEMA_TYPES_FORMAT, writeSchemaTypes, writeSchemaVersion } from "./definitions.js";
import { applyItem } from "./mappings.js";
import { declares, nothingToDo, planOpen, rangeOf, typeInfo, type MigrationOutcome, type OpenPlan } from "./plan.js";
import { revalidate } from "./revalidate.js";

export { MigrationError } from "./advice.js";
export { SCHEMA_TYPES_KEY, SCHEMA_VERSION_KEY } from "./definitions.js";
export type { MigrationOutcome } from "./plan.js";

/**
 * Makes the stored records fit the schema, in one write transaction (nothing written when
 * nothing needs to be). `cache` is the store's read cache, which the writer keeps right.
 */
export function migrateStore(
  dbs: StoreDbs,
  schema: SchemaInfo,
  descriptor: SchemaDescriptor,
  cache: ReadCache,
  progress: ProgressSink = silentProgress,
): MigrationOutcome {
  const plan = planOpen(dbs, schema, descriptor);
  if (nothingToDo(plan)) return plan.outcome;
  const touched: string[] = [];
  // No search hook: changed text forgets the BM25 marker and the open rebuilds the index. No
  // vector hook: a migration cannot change a vector (mappings.ts, revalidate.ts refuse it).
  const writer = new MigrationWriter(dbs, schema, cache, touched);
  try {
    dbs.env.transactionSync(() => {
      applyPlan(dbs, writer, schema, plan, progress);
      writer.flushBuffered(); // an edge that lost its last field value is an edge_ends entry the writer may hold
    });
  } finally {
    cache.settle(touched);
  }
  return plan.outcome;
}

/** The plan's writes; inside the open's one write transaction. */
function applyPlan(dbs: StoreDbs, writer: MigrationWriter, schema: SchemaInfo, plan: OpenPlan, progress: ProgressSink): void {
  const { outcome, current, chain, writeVersion, definitions, writeDefinitions, migrated, changed, advice } = plan;
  for (const m of chain) {
    for (const item of m.items) {
      const task = typeTask(dbs, progress, `migrate ${m.from}=>${m.to}`, item.kind, item.type);
      const n = applyItem(dbs, writer, schema, item, m, current, task);
      task.finish();
      const key = `${item.kind}::${item.type}`;
      outcome.rewritten[key] = (outcome.rewritten[key] ?? 0) + n;
    }
  }
  let textChanged = false;
  for (const { kind, type } of migrated.values()) {
    // A type a later version removed: checkRemovedTypes saw that it has no records.
    if (!declares(schema, kind, type)) continue;
    const item = chain.flatMap((m) => m.items.filter((i) => i.kind === kind && i.type === type).map((i) => ({ m, i }))).pop()!;
    const task = typeTask(dbs, progress, "revalidate", kind, type);
    const how = { mode: "migrated", advice, migration: item.m, item: item.i } as const;
    if (revalidate(dbs, writer, schema, typeInfo(schema, kind, type), how, task).textChanged) textChanged = true;
    task.finish();
  }
  for (const { kind, type } of changed) {
    const task = typeTask(dbs, progress, "revalidate", kind, type);
    const r = revalidate(dbs, writer, schema, typeInfo(schema, kind, type), { mode: "changed", advice, migration: null, item: null }, task);
    task.finish();
    outcome.revalidated[`${kind}::${type}`] = r.checked;
    if (r.textChanged) textChanged = true;
  }
  if (writeVersion) writeSchemaVersion(dbs, current!);
  if (writeDefinitions) writeSchemaTypes(dbs, { format: SCHEMA_TYPES_FORMAT, types: definitions });
  // Stored text changed: without its marker the keyword index rebuilds on open.
  if (textChanged) forgetBm25Marker(dbs);
}

/** A progress task over the records of one type ("migrate 1=>2 N::User: 40k/100k records"). */
function typeTask(dbs: StoreDbs, progress: ProgressSink, what: string, kind: "N" | "E" | "V", type: string): ProgressTask {
  const count = kind === "E" ? edgeCount(dbs, type, undefined) : dbs.nodes.getCount(rangeOf(type));
  return progress.start(`${what} ${kind}::${type}`, "records", count);
}
