// Migrating a store written in an older on-disk format to FORMAT_VERSION, at open (GraphStore.open,
// which holds the directory lock), one format at a time: 1 → 2 (format1-migration.ts), then
// 2 → 3 (format2-migration.ts), then 3 → 4 (format3-migration.ts), then 4 → 5
// (format4-migration.ts). Each step is resumable on its own (its marker in meta
// "format_migration" names the format it starts from) and ends by writing the format it reaches,
// so a store killed anywhere in the chain resumes where it stopped at the next open. Each step works
// in batches of 20,000 keys, one transaction each, and reports to the open's progress sink;
// `strand serve` logs one line ("migrated store format": from, to, entries, ms, resumed). Readers
// that must not write (export, verify, backup) refuse an older format, naming how to migrate it,
// and any format this chain cannot migrate is refused (store/dbs.ts).
import type { ProgressSink } from "../../core/progress.js";
import type { StoreDbs } from "../store/dbs.js";
import { FORMAT_KEY, FORMAT_MIGRATION_KEY, FORMAT_VERSION } from "../store/keys.js";
import { migrateFormat1 } from "./format1-migration.js";
import { migrateFormat2 } from "./format2-migration.js";
import { migrateFormat3 } from "./format3-migration.js";
import { migrateFormat4 } from "./format4-migration.js";
import type { FormatMigrationOptions } from "./format-migration-marker.js";

export type { FormatMigrationOptions } from "./format-migration-marker.js";

/** What a format migration did, for the open's log line. */
export interface FormatMigrationOutcome {
  from: number;
  to: number;
  /** Keys converted by every step (adjacency tails and chunks, edge records), this run and any interrupted run before it. */
  entries: number;
  /** Milliseconds this run took. */
  ms: number;
  /** True when an interrupted migration was resumed. */
  resumed: boolean;
}

/** A new store: records the layout version it is written in (openDbs refuses other versions). */
export function writeFormatVersion(dbs: StoreDbs): void {
  if (dbs.meta.get(FORMAT_KEY) === undefined) dbs.meta.putSync(FORMAT_KEY, FORMAT_VERSION);
}

const STEPS: Record<number, (dbs: StoreDbs, progress: ProgressSink, options: FormatMigrationOptions) => number> = {
  1: migrateFormat1,
  2: migrateFormat2,
  3: migrateFormat3,
  4: migrateFormat4,
};

/**
 * Migrates a store in an older format to FORMAT_VERSION (null when it is already there). Runs
 * outside any transaction: each step commits one transaction per batch.
 */
export function migrateFormat(dbs: StoreDbs, progress: ProgressSink, options: FormatMigrationOptions = {}): FormatMigrationOutcome | null {
  const first = dbs.meta.get(FORMAT_KEY);
  if (first === undefined || first === FORMAT_VERSION) return null;
  const started = performance.now();
  const resumed = dbs.meta.get(FORMAT_MIGRATION_KEY) !== undefined;
  // onBatch counts the batches of every step, in order.
  let batches = 0;
  const stepOptions: FormatMigrationOptions = { ...options, onBatch: () => options.onBatch?.(++batches) };
  let entries = 0;
  for (let format: unknown = first; format !== FORMAT_VERSION; format = dbs.meta.get(FORMAT_KEY)) {
    const step = typeof format === "number" ? STEPS[format] : undefined;
    if (step === undefined) throw new Error(`cannot migrate store format ${String(format)}`);
    entries += step(dbs, progress, stepOptions);
  }
  return { from: first as number, to: FORMAT_VERSION, entries, ms: Math.round(performance.now() - started), resumed };
}
