// Writes of the `meta` database (keys in store/keys.ts): what the stored data is, not graph data.
// They live with the graph writer so that every LMDB write of a store is made under runtime/write/.
import type { JsonValue } from "../../core/schema.js";
import type { StoreDbs } from "../store/dbs.js";
import { BM25_MARKER_KEY, FORMAT_KEY, FORMAT_VERSION, SCHEMA_TYPES_KEY, SCHEMA_VERSION_KEY } from "../store/keys.js";

/** A new store: records the layout version it is written in (openDbs refuses other versions). */
export function writeFormatVersion(dbs: StoreDbs): void {
  if (dbs.meta.get(FORMAT_KEY) === undefined) dbs.meta.putSync(FORMAT_KEY, FORMAT_VERSION);
}

/** The schema::N the data is at; inside the open's migration transaction. */
export function writeSchemaVersion(dbs: StoreDbs, version: number): void {
  dbs.meta.putSync(SCHEMA_VERSION_KEY, version);
}

/** Each type's definition as the stored records were last checked against (migrate/definitions.ts). */
export function writeSchemaTypes(dbs: StoreDbs, value: { format: number; types: Record<string, JsonValue> }): void {
  dbs.meta.putSync(SCHEMA_TYPES_KEY, value);
}

/** The BM25 configuration the keyword index was (re)built with. */
export function writeBm25Marker(dbs: StoreDbs, marker: string): void {
  dbs.meta.putSync(BM25_MARKER_KEY, marker);
}

/** The keyword index no longer describes the records: the next open with BM25 enabled rebuilds it. */
export function forgetBm25Marker(dbs: StoreDbs): void {
  if (dbs.meta.get(BM25_MARKER_KEY) !== undefined) dbs.meta.removeSync(BM25_MARKER_KEY);
}
