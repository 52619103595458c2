// Planning a store's open: the migration chain from the data's version, the types whose
// definition changed, and the refusal of records of types the schema no longer declares.
// Reads only; the writes are migrate.ts's.
import type { MigrationDescriptor, SchemaDescriptor } from "../../core/schema.js";
import { bareEdgeCount, edgeEndsRange, parseEdgeEndsKey } from "../records/edge-ends.js";
import type { StoreDbs } from "../store/dbs.js";
import { labelRange, parseItemKey, SCHEMA_TYPES_KEY, SCHEMA_VERSION_KEY, type ItemKind } from "../store/keys.js";
import { removedTypesMessage, type RemovedType } from "../records/removed-types.js";
import type { SchemaInfo, TypeInfo } from "../store/schema-info.js";
import { MigrationError, NOTHING_CHANGED, type Advice } from "./advice.js";
import { readDefinitions, same, SCHEMA_TYPES_FORMAT, typeDefinitions, type Definitions } from "./definitions.js";

/** What the open did to make the stored records fit the schema. */
export interface MigrationOutcome {
  from: number | null;
  to: number | null;
  /** records rewritten by a MIGRATION item, by "N::Type" */
  rewritten: Record<string, number>;
  /** records checked because their type's definition changed (types without a MIGRATION item), by "N::Type" */
  revalidated: Record<string, number>;
}

export interface TypeRef {
  kind: ItemKind;
  type: string;
}

/** What an open must do to make the stored records fit the schema (nothing written yet). */
export interface OpenPlan {
  /** from/to filled in; the counts are the migration's to fill. */
  outcome: MigrationOutcome;
  /** The project's schema::N, if versioned. */
  current: number | undefined;
  /** The MIGRATIONs from the data's version to `current`, in order. */
  chain: MigrationDescriptor[];
  writeVersion: boolean;
  definitions: Definitions;
  writeDefinitions: boolean;
  /** Types a MIGRATION item of the chain names, by "N::Type". */
  migrated: Map<string, TypeRef>;
  /** Types without one whose definition changed since their records were last checked. */
  changed: TypeRef[];
  advice: Advice;
}

/** True when the open has nothing to write. */
export function nothingToDo(plan: OpenPlan): boolean {
  return !plan.writeVersion && !plan.writeDefinitions && plan.chain.length === 0 && plan.changed.length === 0;
}

export function planOpen(dbs: StoreDbs, schema: SchemaInfo, descriptor: SchemaDescriptor): OpenPlan {
  const current = descriptor.version;
  const migrations = descriptor.migrations ?? [];
  const empty = isEmpty(dbs);
  const outcome: MigrationOutcome = { from: null, to: null, rewritten: {}, revalidated: {} };
  const storedVersion = dbs.meta.get(SCHEMA_VERSION_KEY) as number | undefined;

  // 1. The migration chain from the data's version (checked before anything is written).
  const chain: MigrationDescriptor[] = [];
  let writeVersion = false;
  if (current !== undefined) {
    let stored = storedVersion;
    if (stored === undefined) {
      stored = empty ? current : Math.min(current, ...migrations.map((m) => m.from));
      writeVersion = true;
    }
    if (stored > current) {
      throw new MigrationError(
        `the data is at schema::${stored}, but the project declares schema::${current}; deploy schema::${stored} or newer`,
      );
    }
    for (let v = stored; v < current; ) {
      const m = migrations.find((x) => x.from === v);
      if (m === undefined)
        throw new MigrationError(
          `the data is at schema::${v} and the project declares schema::${current}, but no MIGRATION starts at schema::${v}`,
        );
      chain.push(m);
      v = m.to;
    }
    if (chain.length > 0) writeVersion = true;
    outcome.from = stored;
    outcome.to = current;
  }

  // 2. Types whose definition differs from the one the records were last checked against.
  const definitions = typeDefinitions(descriptor);
  const { types: stored, format } = readDefinitions(dbs.meta.get(SCHEMA_TYPES_KEY));
  // Records of a type the schema no longer declares would be unreachable: refuse, as for a removed field.
  if (!empty) checkRemovedTypes(dbs, schema, stored);
  const writeDefinitions = stored === undefined || !same(stored, definitions) || format !== SCHEMA_TYPES_FORMAT;
  const migrated = new Map<string, TypeRef>();
  for (const m of chain) for (const item of m.items) migrated.set(`${item.kind}::${item.type}`, { kind: item.kind, type: item.type });
  const changed: TypeRef[] = [];
  if (!empty) {
    for (const key of Object.keys(definitions)) {
      if (migrated.has(key)) continue;
      if (stored !== undefined && same(stored[key], definitions[key])) continue;
      changed.push({ kind: key.slice(0, 1) as ItemKind, type: key.slice(3) });
    }
  }
  const advice: Advice = { current, stored: storedVersion, last: chain.length > 0 ? chain[chain.length - 1]! : null };
  return { outcome, current, chain, writeVersion, definitions, writeDefinitions, migrated, changed, advice };
}

/**
 * Refuses the open when the data holds records of a node, edge or vector type the schema does not
 * declare (removed, or renamed): no query could reach them, and a DROP of a node that still has
 * such edges could not remove them. Nothing is dropped silently. Reads only; runs before any write.
 */
export function checkRemovedTypes(dbs: StoreDbs, schema: SchemaInfo, stored: Definitions | undefined): void {
  const removed: RemovedType[] = [];
  const look = (db: StoreDbs["nodes"] | StoreDbs["edges"], kindOf: (label: string) => ItemKind | null): void => {
    for (const { label, sample } of storedLabels(db)) {
      const kind = kindOf(label);
      if (kind === null) continue;
      const count = db.getCount(rangeOf(label));
      removed.push({ ref: `${kind}::${label}`, drop: `DROP ${kind}<${label}>`, count, sample });
    }
  };
  look(dbs.nodes, (label) => {
    if (schema.nodes.has(label) || schema.vectors.has(label)) return null;
    return stored?.[`V::${label}`] !== undefined || dbs.vectorTypes.get([label]) !== undefined ? "V" : "N";
  });
  look(dbs.edges, (label) => (schema.edges.has(label) ? null : "E"));
  // Edges without a record (records/edge-records.ts).
  for (const { label, sample } of bareEdgeLabels(dbs)) {
    if (schema.edges.has(label)) continue;
    const known = removed.find((r) => r.ref === `E::${label}`);
    const count = bareEdgeCount(dbs.edgeEnds, label, undefined);
    if (known !== undefined) known.count = (known.count ?? 0) + count;
    else removed.push({ ref: `E::${label}`, drop: `DROP E<${label}>`, count, sample });
  }
  if (removed.length === 0) return;
  throw new MigrationError(removedTypesMessage(removed, `stored records are never dropped silently, so ${NOTHING_CHANGED}`));
}

/** The labels of `edge_ends` (each with its first id), one seek per label. */
function* bareEdgeLabels(dbs: StoreDbs): Iterable<{ label: string; sample: string }> {
  let start: Uint8Array | undefined;
  for (;;) {
    let first: Uint8Array | undefined;
    for (const key of dbs.edgeEnds.getKeys(start === undefined ? { limit: 1 } : { start, limit: 1 })) first = key;
    if (first === undefined) return;
    const { label, id } = parseEdgeEndsKey(first);
    yield { label, sample: id };
    start = edgeEndsRange(label).end;
  }
}

/** The labels of a records db (each with its first id), one seek per label. */
function* storedLabels(db: StoreDbs["nodes"] | StoreDbs["edges"]): Iterable<{ label: string; sample: string }> {
  let start: Uint8Array | undefined;
  for (;;) {
    let first: { label: string; id: string } | undefined;
    for (const key of db.getKeys(start === undefined ? { limit: 1 } : { start, limit: 1 })) first = parseItemKey(key);
    if (first === undefined) return;
    yield { label: first.label, sample: first.id };
    start = labelRange(first.label).end;
  }
}

export function declares(schema: SchemaInfo, kind: ItemKind, type: string): boolean {
  return (kind === "E" ? schema.edges : kind === "V" ? schema.vectors : schema.nodes).has(type);
}

export function typeInfo(schema: SchemaInfo, kind: ItemKind, type: string): TypeInfo {
  if (!declares(schema, kind, type))
    throw new MigrationError(
      `${kind}::${type} is not declared by the current schema, but its records were to be checked against it; ${NOTHING_CHANGED}`,
    );
  return kind === "E" ? schema.edge(type) : kind === "V" ? schema.vector(type) : schema.node(type);
}

export function isEmpty(dbs: StoreDbs): boolean {
  for (const _ of dbs.nodes.getKeys({ limit: 1 })) return false;
  for (const _ of dbs.edges.getKeys({ limit: 1 })) return false;
  return true;
}

export function rangeOf(type: string): { start: Uint8Array; end: Uint8Array } {
  return labelRange(type);
}
