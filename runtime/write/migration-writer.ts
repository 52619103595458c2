// The graph writer as the open's migrations use it (runtime/migrate/): one write transaction,
// before anything is served, with neither hook — the open rebuilds the keyword index (a migration
// forgets its marker) and vectors cannot change. Besides the writer's own changes, it stores
// records a MIGRATION item rewrote and records revalidated against their type's new definition.
import type { EdgeItem, NodeItem } from "../../core/items.js";
import { edgeById } from "../records/edge-records.js";
import { claimEdgeUnique, clearTypeIndexes, indexNew } from "../indexes/index-writes.js";
import type { StoreDbs } from "../store/dbs.js";
import { itemKey } from "../store/keys.js";
import { recordKey, type ReadCache } from "../store/read-cache.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo } from "../store/schema-info.js";
import { GraphWriter } from "./graph-writer.js";

export class MigrationWriter extends GraphWriter {
  constructor(dbs: StoreDbs, schema: SchemaInfo, cache: ReadCache, touched: string[]) {
    super(dbs, schema, cache, touched, { search: null, vectors: null });
  }

  /**
   * A MIGRATION item's mapping rewrote a stored record. Only the record: its index entries and
   * claims are rebuilt by the revalidation of its type that follows in the same transaction, and
   * the keyword index by the open (the migration forgets its marker); vectors cannot change.
   */
  storeMappedRecord(kind: "N" | "E" | "V", label: string, next: NodeItem): void {
    this.invalidate(recordKey(next.id));
    if (kind === "E") {
      this.ends.flush(); // edgeById reads edge_ends
      this.putEdge(label, next as EdgeItem, edgeById(this.dbs, label, next.id, undefined) ?? null);
    } else this.dbs.nodes.putSync(itemKey(label, next.id), next);
  }

  /** Deletes every index entry and claim of the type, before storeRevalidatedRecord writes them again. */
  clearTypeIndexes(info: TypeInfo): void {
    clearTypeIndexes(this.dbs, info);
  }

  /**
   * A record checked against its type's current definition: its index entries and claims are
   * written again (the caller checked them free), and the record itself when `rewrite`.
   */
  storeRevalidatedRecord(info: TypeInfo, next: NodeItem, rewrite: boolean): void {
    indexNew(this.dbs, info, next);
    if (info.kind === "E") claimEdgeUnique(this.dbs, info as EdgeTypeInfo, next.id, next.from_node as string, next.to_node as string);
    if (rewrite) this.storeMappedRecord(info.kind, info.name, next);
  }
}
