// Checks the schema items of a project and turns them into the runtime's SchemaDescriptor
// (E101-E107, E201, E202, W004: compiler/diagnostics/table.ts).
import type { EdgeSchema, FieldDef, NodeSchema, SchemaItem, Span, TypeExpr, VectorSchema } from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import { closest, error, type Diagnostic } from "../diagnostics/diagnostic.js";
import { literalFitsType } from "../ir/value-types.js";
import { nowDefaultDiagnostic } from "./default-now.js";
import {
  RESERVED_FIELD_NAMES,
  RESERVED_VECTOR_FIELD_NAMES,
  type EdgeTypeDescriptor,
  type FieldDescriptor,
  type NodeTypeDescriptor,
  type SchemaDescriptor,
  type ValueType,
  type VectorTypeDescriptor,
} from "../../core/schema.js";

export interface CheckedSchema {
  descriptor: SchemaDescriptor;
  nodes: Map<string, NodeTypeDescriptor>;
  edges: Map<string, EdgeTypeDescriptor>;
  vectors: Map<string, VectorTypeDescriptor>;
}

export function checkSchema(items: readonly SchemaItem[], diagnostics: Diagnostic[]): CheckedSchema {
  const seen = new Map<string, SchemaItem>();
  for (const item of items) {
    const previous = seen.get(item.name.name);
    if (previous !== undefined) {
      diagnostics.push(
        error(
          "E102",
          `type '${item.name.name}' is declared twice`,
          item.name.span,
          `the first declaration is at ${where(previous.name.span)}`,
        ),
      );
      continue;
    }
    seen.set(item.name.name, item);
  }
  // Edges connect nodes and vectors alike (E::HasChunk { From: Doc, To: Chunk } with V::Chunk).
  const nodeNames = [...seen.values()]
    .filter((i): i is NodeSchema | VectorSchema => i.kind === "NodeSchema" || i.kind === "VectorSchema")
    .map((i) => i.name.name);

  const nodes = new Map<string, NodeTypeDescriptor>();
  const vectors = new Map<string, VectorTypeDescriptor>();
  const edges = new Map<string, EdgeTypeDescriptor>();
  for (const item of seen.values()) {
    if (item.kind === "NodeSchema") nodes.set(item.name.name, { name: item.name.name, fields: checkFields(item, diagnostics) });
    else if (item.kind === "VectorSchema") vectors.set(item.name.name, { name: item.name.name, fields: checkFields(item, diagnostics) });
    else {
      const edge = checkEdge(item, new Set(nodeNames), diagnostics);
      if (edge !== null) edges.set(edge.name, edge);
    }
  }
  return {
    descriptor: { nodes: [...nodes.values()], vectors: [...vectors.values()], edges: [...edges.values()] },
    nodes,
    edges,
    vectors,
  };
}

function checkEdge(item: EdgeSchema, nodeNames: ReadonlySet<string>, diagnostics: Diagnostic[]): EdgeTypeDescriptor | null {
  const fields = checkFields(item, diagnostics);
  let ok = true;
  for (const [role, end] of [
    ["From", item.from],
    ["To", item.to],
  ] as const) {
    if (end === null) {
      diagnostics.push(
        error("E106", `edge type '${item.name.name}' has no '${role}:' node type`, item.name.span, `add '${role}: <NodeType>' to its body`),
      );
      ok = false;
    } else if (!nodeNames.has(end.name)) {
      const guess = closest(end.name, nodeNames);
      diagnostics.push(
        error(
          "E101",
          `unknown node or vector type '${end.name}' in '${role}' of edge type '${item.name.name}'`,
          end.span,
          guess !== undefined ? `did you mean '${guess}'?` : `declare it with 'N::${end.name} { ... }'`,
        ),
      );
      ok = false;
    }
  }
  if (!ok || item.from === null || item.to === null) return null;
  return { name: item.name.name, from: item.from.name, to: item.to.name, unique: item.unique, fields };
}

/**
 * Not a field, object member or parameter name: `{__proto__: v}` sets an object's prototype
 * instead of a member, and msgpack (the store) reads the key back as "__proto_".
 */
export const PROTO = "__proto__";

function checkFields(item: NodeSchema | VectorSchema | EdgeSchema, diagnostics: Diagnostic[]): FieldDescriptor[] {
  const fields: FieldDescriptor[] = [];
  const names = new Set<string>();
  for (const field of item.fields) {
    const name = field.name.name;
    const reserved = item.kind === "VectorSchema" ? RESERVED_VECTOR_FIELD_NAMES : RESERVED_FIELD_NAMES;
    if (reserved.includes(name)) {
      diagnostics.push(
        error("E104", `field name '${name}' is reserved: every record already carries it`, field.name.span, "rename the field"),
      );
      continue;
    }
    if (name === PROTO) {
      diagnostics.push(
        error(
          "E104",
          `field name '${PROTO}' is reserved: a JavaScript object cannot hold it as a plain member`,
          field.name.span,
          "rename the field",
        ),
      );
      continue;
    }
    if (names.has(name)) {
      diagnostics.push(error("E105", `field '${name}' is declared twice in '${item.name.name}'`, field.name.span));
      continue;
    }
    names.add(name);
    const type = resolveValueType(field.type, diagnostics);
    if (type === null) continue;
    if (field.index !== "none" && type.kind !== "scalar") {
      diagnostics.push(error("E107", `only scalar fields can be indexed; '${name}' is ${helixTypeName(type)}`, field.name.span));
      continue;
    }
    fields.push(checkDefault(field, type, diagnostics));
  }
  return fields;
}

function checkDefault(field: FieldDef, type: ValueType, diagnostics: Diagnostic[]): FieldDescriptor {
  const base = { name: field.name.name, type, index: field.index };
  if (field.default === null) return { ...base, default: null };
  if (field.default.kind === "DefaultNow") {
    const problem = nowDefaultDiagnostic(field.name.name, type, field.default.span);
    if (problem !== null) diagnostics.push(problem);
    return problem?.severity === "error" ? { ...base, default: null } : { ...base, default: { kind: "now" } };
  }
  const fit = literalFitsType(field.default.value, type);
  if (!fit.ok) {
    diagnostics.push(error("E201", `default of '${field.name.name}': ${fit.message}`, field.default.span));
    // Keep the field (without its default) so that uses of it do not cascade into more errors.
    return { ...base, default: null };
  }
  return { ...base, default: { kind: "literal", value: fit.value } };
}

/** Resolves a type written in the source; reports E103 and returns null when it is not a value type. */
export function resolveValueType(type: TypeExpr, diagnostics: Diagnostic[]): ValueType | null {
  switch (type.kind) {
    case "ScalarType":
      return { kind: "scalar", name: type.name };
    case "ArrayType": {
      const element = resolveValueType(type.element, diagnostics);
      return element === null ? null : { kind: "array", element };
    }
    case "ObjectType": {
      const fields: { name: string; type: ValueType; optional: boolean }[] = [];
      for (const f of type.fields) {
        if (f.name.name === PROTO) {
          diagnostics.push(
            error(
              "E104",
              `member name '${PROTO}' is reserved: a JavaScript object cannot hold it as a plain member`,
              f.name.span,
              "rename the member",
            ),
          );
          return null;
        }
        if (fields.some((g) => g.name === f.name.name)) {
          diagnostics.push(error("E105", `field '${f.name.name}' is declared twice in this object type`, f.name.span));
          return null;
        }
        const t = resolveValueType(f.type, diagnostics);
        if (t === null) return null;
        fields.push({ name: f.name.name, type: t, optional: f.optional });
      }
      return { kind: "object", fields };
    }
    case "NamedType":
      diagnostics.push(
        error(
          "E103",
          `unknown type '${type.name}'`,
          type.span,
          "use String, Boolean, I8..I64, U8..U128, F32, F64, ID, Date, [T] or {field: T}",
        ),
      );
      return null;
  }
}

function where(span: Span): string {
  return `${span.file}:${span.start.line}:${span.start.column}`;
}
