// Schema migrations, applied when a store opens with a project whose `schema::N` is newer than the
// data's. The whole chain (stored version → ... → current) runs in one write transaction: every
// record of a migrated type is rewritten, then validated against the current schema and
// re-indexed. Any record that cannot be converted aborts the transaction and the store refuses to
// open, naming the record, the field and why: records are converted, never lost.
//
// meta "schema_version" holds the version the data is at. A store without it that already holds
// records predates versioning and is taken to be at the oldest version the migrations start from.
import type { NodeItem, PropValue } from "../items.js";
import type { JsonValue, MigrationDescriptor, MigrationItemDescriptor, SchemaDescriptor, ValueType } from "../schema.js";
import { checkValue, describeValue } from "../values.js";
import type { StoreDbs } from "./dbs.js";
import { indexNew } from "./indexes.js";
import { MAX_KEY, type Key } from "./keys.js";
import type { SchemaInfo, TypeInfo } from "./schema-info.js";

export const SCHEMA_VERSION_KEY = "schema_version";
/** runtime/search/bm25-index.ts's marker of how the keyword index was built */
const BM25_MARKER_KEY = "bm25";

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

export interface MigrationOutcome {
  from: number | null;
  to: number | null;
  /** records rewritten, by "N::Type" */
  rewritten: Record<string, number>;
}

export function migrateStore(dbs: StoreDbs, schema: SchemaInfo, descriptor: SchemaDescriptor): MigrationOutcome {
  const current = descriptor.version;
  const none: MigrationOutcome = { from: null, to: null, rewritten: {} };
  if (current === undefined) return none;
  const migrations = descriptor.migrations ?? [];
  let stored = dbs.meta.get(SCHEMA_VERSION_KEY) as number | undefined;
  if (stored === undefined) {
    const empty = isEmpty(dbs);
    stored = empty ? current : Math.min(current, ...migrations.map((m) => m.from));
    if (empty || stored === current) {
      dbs.meta.putSync(SCHEMA_VERSION_KEY, current);
      return { ...none, from: current, to: current };
    }
  }
  if (stored === current) return { ...none, from: current, to: current };
  if (stored > current) {
    throw new MigrationError(`the data is at schema::${stored}, but the project declares schema::${current}; deploy schema::${stored} or newer`);
  }
  const chain: MigrationDescriptor[] = [];
  for (let v = stored; v < current; ) {
    const m = migrations.find((x) => x.from === v);
    if (m === undefined) throw new MigrationError(`the data is at schema::${v} and the project declares schema::${current}, but no MIGRATION starts at schema::${v}`);
    chain.push(m);
    v = m.to;
  }
  const rewritten: Record<string, number> = {};
  dbs.env.transactionSync(() => {
    const touched = new Map<string, { kind: "N" | "E" | "V"; type: string }>();
    for (const m of chain) {
      for (const item of m.items) {
        const n = applyItem(dbs, item, m);
        const key = `${item.kind}::${item.type}`;
        rewritten[key] = (rewritten[key] ?? 0) + n;
        touched.set(key, { kind: item.kind, type: item.type });
      }
    }
    for (const { kind, type } of touched.values()) finish(dbs, schema, kind, type);
    dbs.meta.putSync(SCHEMA_VERSION_KEY, current);
    // Text fields may have changed: without its marker the keyword index rebuilds on open.
    if (touched.size > 0) dbs.meta.removeSync(BM25_MARKER_KEY);
  });
  return { from: stored, to: current, rewritten };
}

function isEmpty(dbs: StoreDbs): boolean {
  for (const _ of dbs.nodes.getKeys({ limit: 1 })) return false;
  for (const _ of dbs.edges.getKeys({ limit: 1 })) return false;
  return true;
}

function rangeOf(type: string): { start: Key; end: Key } {
  return { start: [type], end: [type, MAX_KEY] };
}

/** Rewrites every record of the item's type with the mapping (unvalidated until `finish`). */
function applyItem(dbs: StoreDbs, item: MigrationItemDescriptor, m: MigrationDescriptor): number {
  const db = item.kind === "E" ? dbs.edges : dbs.nodes;
  let n = 0;
  for (const { key, value } of db.getRange(rangeOf(item.type))) {
    const rec = value as NodeItem;
    const next: NodeItem = { ...rec };
    for (const f of item.fields) {
      const raw: PropValue | undefined = f.source.kind === "literal" ? f.source.value : rec[f.source.name];
      if (raw === undefined || raw === null) {
        delete next[f.name];
        continue;
      }
      next[f.name] = f.cast === null ? raw : cast(raw, f.cast, `${item.kind}::${item.type} ${rec.id} field '${f.name}' (MIGRATION schema::${m.from} => schema::${m.to})`);
    }
    // A field the mapping renamed away from is gone unless the mapping also keeps it.
    for (const f of item.fields) {
      const src = f.source;
      if (src.kind === "field" && src.name !== f.name && !item.fields.some((g) => g.name === src.name)) delete next[src.name];
    }
    db.putSync(key as Key, next as never);
    n++;
  }
  return n;
}

/** `AS T`: numbers from numeric strings, strings from numbers and booleans, booleans from "true"/"false". */
function cast(value: PropValue, type: ValueType, where: string): JsonValue {
  if (type.kind !== "scalar") return value;
  const numeric = /^(I|U|F)\d+$/.test(type.name);
  if (numeric) {
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    if (!Number.isFinite(n)) throw new MigrationError(`${where}: cannot convert ${describeValue(value)} to ${type.name}`);
    return n;
  }
  if (type.name === "String") return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
  if (type.name === "Boolean") {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    throw new MigrationError(`${where}: cannot convert ${describeValue(value)} to Boolean`);
  }
  return value;
}

/**
 * Validates every record of a migrated type against the current schema (fields in declaration
 * order, defaults for new fields, unknown fields dropped) and rebuilds the type's indexes.
 */
function finish(dbs: StoreDbs, schema: SchemaInfo, kind: "N" | "E" | "V", type: string): void {
  const info: TypeInfo = kind === "E" ? schema.edge(type) : kind === "V" ? schema.vector(type) : schema.node(type);
  const db = kind === "E" ? dbs.edges : dbs.nodes;
  for (const key of dbs.index.getKeys({ start: [kind, type], end: [kind, type, MAX_KEY] })) dbs.index.removeSync(key as Key);
  for (const key of dbs.unique.getKeys({ start: [kind, type], end: [kind, type, MAX_KEY] })) dbs.unique.removeSync(key as Key);
  const now = new Date().toISOString();
  for (const { key, value } of db.getRange(rangeOf(type))) {
    const rec = value as NodeItem;
    const next: NodeItem = { id: rec.id, label: rec.label };
    for (const member of ["from_node", "to_node", "data"]) if (rec[member] !== undefined) next[member] = rec[member]!;
    for (const field of info.fields) {
      let v: PropValue | undefined = rec[field.name];
      if (v === undefined || v === null) {
        v = field.literalDefault ?? (field.defaultNow ? now : undefined);
        if (v === undefined) continue;
      }
      const r = checkValue(field.descriptor.type, v, `${kind}::${type}.${field.name}`);
      if (!r.ok) throw new MigrationError(`${kind}::${type} ${rec.id}: ${r.message}; the migration must convert it (e.g. ${field.name}: ${field.name} AS ...)`);
      next[field.name] = r.value;
    }
    try {
      indexNew(dbs, info, next);
    } catch (e) {
      throw new MigrationError(`${kind}::${type} ${rec.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
    db.putSync(key as Key, next as never);
  }
}
