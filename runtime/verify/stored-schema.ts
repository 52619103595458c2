// The schema a data directory's records were last checked against, read back from meta
// "schema_types" (written by the open's migration step, see store/keys.ts), so a store can be
// verified without its project.
import type { EdgeTypeDescriptor, FieldDescriptor, NodeTypeDescriptor, SchemaDescriptor } from "../../core/schema.js";
import type { StoreDbs } from "../store/dbs.js";
import { SCHEMA_TYPES_KEY } from "../store/keys.js";

/** The meta key runtime/migrate/ keeps the definitions under. */
const SCHEMA_TYPES_FORMAT = 1;

type Definition = { fields: FieldDescriptor[]; from?: string; to?: string; unique?: boolean };

/** The recorded types as a descriptor (no versions or migrations), or why there are none. */
export function storedSchema(dbs: StoreDbs): SchemaDescriptor | string {
  const value = dbs.meta.get(SCHEMA_TYPES_KEY) as Record<string, unknown> | undefined;
  if (value === undefined || value === null || typeof value !== "object") {
    return "the data records no type definitions (open it once with this version of Strand to record them)";
  }
  // Stores written before `format` existed hold the bare types map.
  if (typeof value.format === "number" && value.format !== SCHEMA_TYPES_FORMAT) {
    return `the data's type definitions are in format ${value.format}, which this version of Strand does not read`;
  }
  const types = (typeof value.format === "number" ? value.types : value) as Record<string, Definition>;
  const schema: SchemaDescriptor = { nodes: [], vectors: [], edges: [] };
  for (const [ref, def] of Object.entries(types)) {
    const name = ref.slice(3);
    if (ref.startsWith("E::")) {
      const edge: EdgeTypeDescriptor = { name, from: def.from!, to: def.to!, unique: def.unique === true, fields: def.fields };
      schema.edges.push(edge);
      continue;
    }
    const type: NodeTypeDescriptor = { name, fields: def.fields };
    (ref.startsWith("V::") ? schema.vectors : schema.nodes).push(type);
  }
  return schema;
}
