// Turning user-supplied props into stored records: schema validation, defaults, and the member
// order clients see (id, label, [from_node, to_node], then fields in declaration order).
import { StrandError } from "../../core/errors.js";
import { setMember, type EdgeItem, type NodeItem, type PropValue, type Props } from "../../core/items.js";
import type { JsonValue } from "../../core/schema.js";
import { checkValue } from "../../core/values.js";
import { nowDefaultForm } from "../../core/now-default.js";
import type { EdgeTypeInfo, TypeInfo } from "../store/schema-info.js";

const hasOwn = Object.prototype.hasOwnProperty;

function typeRef(info: TypeInfo): string {
  return `${info.kind}::${info.name}`;
}

/**
 * Validates props against the type and returns them canonicalised. Members that are undefined
 * or null are dropped (an absent optional parameter means "not given").
 */
export function validateProps(info: TypeInfo, props: Props): ReadonlyMap<string, JsonValue> {
  let out: Map<string, JsonValue> | null = null;
  for (const key in props) {
    if (!hasOwn.call(props, key)) continue;
    const field = info.fieldByName.get(key);
    if (!field) {
      throw new StrandError("INVALID_VALUE", `unknown property '${key}' for ${typeRef(info)} (fields: ${info.fieldList})`);
    }
    const value: PropValue | undefined = props[key];
    if (value === undefined || value === null) continue;
    const r = checkValue(field.descriptor.type, value, `${info.name}.${key}`);
    if (!r.ok) throw new StrandError("INVALID_VALUE", `property ${r.message}`);
    out ??= new Map();
    out.set(key, r.value);
  }
  // No field given (every edge of a FOR-loop ingest without properties): no Map per record.
  return out ?? NO_VALUES;
}

const NO_VALUES: ReadonlyMap<string, JsonValue> = new Map();

/** The value a field without one gets: its literal DEFAULT, or for DEFAULT NOW the time `nowIso` (an RFC 3339 string). */
export function defaultFor(field: TypeInfo["fields"][number], nowIso: string): JsonValue | undefined {
  if (field.literalDefault !== undefined) return field.literalDefault;
  if (!field.defaultNow) return undefined;
  // On an I64/U64/U128 field, the time in epoch milliseconds; else the Date wire form (core/now-default.ts).
  return nowDefaultForm(field.descriptor.type) === "epoch-ms" ? Date.parse(nowIso) : nowIso;
}

function appendFields(
  target: Record<string, PropValue>,
  info: TypeInfo,
  values: ReadonlyMap<string, JsonValue>,
  nowIso: string | null,
): void {
  for (const field of info.fields) {
    let v = values.get(field.name);
    if (v === undefined && nowIso !== null) v = defaultFor(field, nowIso);
    if (v !== undefined) setMember(target, field.name, v);
  }
}

/** A new node record; `nowIso` is the creation time used for DEFAULT NOW (unused otherwise). */
export function newNodeRecord(info: TypeInfo, id: string, values: ReadonlyMap<string, JsonValue>, nowIso: string): NodeItem {
  const rec: NodeItem = { id, label: info.name };
  appendFields(rec, info, values, nowIso);
  return rec;
}

export function newEdgeRecord(
  info: EdgeTypeInfo,
  id: string,
  fromId: string,
  toId: string,
  values: ReadonlyMap<string, JsonValue>,
  nowIso: string,
): EdgeItem {
  const rec: EdgeItem = { id, label: info.name, from_node: fromId, to_node: toId };
  appendFields(rec, info, values, nowIso);
  return rec;
}

/** `current` with the given fields replaced, rebuilt in canonical member order. */
export function updatedRecord<T extends NodeItem>(info: TypeInfo, current: T, values: ReadonlyMap<string, JsonValue>): T {
  const rec = { id: current.id, label: current.label } as T;
  const edge = current as unknown as EdgeItem;
  if (info.kind === "E") {
    (rec as unknown as EdgeItem).from_node = edge.from_node;
    (rec as unknown as EdgeItem).to_node = edge.to_node;
  }
  // A vector without an `embedding` field keeps its vector in `data` (see runtime/vector/).
  if (info.kind === "V" && current.data !== undefined) (rec as Record<string, PropValue>).data = current.data;
  for (const field of info.fields) {
    const v = values.has(field.name) ? values.get(field.name) : current[field.name];
    if (v !== undefined) setMember(rec as Record<string, PropValue>, field.name, v);
  }
  return rec;
}
