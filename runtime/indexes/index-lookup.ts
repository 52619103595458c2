// The records whose INDEX or UNIQUE field equals a value (N<T>({field: value}), E<T>({..})): the
// value is canonicalised with the field's type first (so an upper-case ID or a date in another
// notation still matches); a value that is not valid for the field matches nothing.
import type { Transaction } from "lmdb";
import type { NodeItem, PropValue } from "../../core/items.js";
import { checkValue } from "../../core/values.js";
import type { StoreDbs } from "../store/dbs.js";
import { idOfValue, indexBound, keyId, uniqueKey } from "../store/keys.js";
import type { TypeInfo } from "../store/schema-info.js";

/** `get` reads one record of the type by id (through the caller's cache); at most `limit` records. */
export function itemsByIndexValue<T extends NodeItem>(
  dbs: StoreDbs,
  transaction: Transaction | undefined,
  info: TypeInfo,
  field: string,
  value: PropValue,
  limit: number | undefined,
  get: (id: string) => T | undefined,
): T[] {
  const label = info.name;
  const f = info.fieldByName.get(field);
  if (!f || f.descriptor.index === "none") throw new Error(`${info.kind}::${label}.${field} is not indexed`);
  if (value === null || value === undefined) return [];
  const r = checkValue(f.descriptor.type, value, `${label}.${field}`);
  if (!r.ok) return [];
  const opts = transaction === undefined ? undefined : { transaction };
  if (f.descriptor.index === "unique") {
    const owner = dbs.unique.get(uniqueKey(info.kind, label, field, r.value), opts);
    const rec = owner === undefined ? undefined : get(idOfValue(owner));
    return rec ? [rec] : [];
  }
  const out: T[] = [];
  // Every id indexed under this value: indexKey() with any trailing item id.
  const parts = uniqueKey(info.kind, label, field, r.value);
  const range = { start: indexBound(parts), end: indexBound(parts, true), ...opts };
  for (const key of dbs.index.getKeys(range)) {
    const rec = get(keyId(key));
    if (rec) out.push(rec);
    if (out.length === limit) break; // leaving the loop closes lmdb's cursor
  }
  return out;
}
