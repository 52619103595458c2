// Per-type lookups derived once from the SchemaDescriptor, so the hot paths never search arrays.
import type {
  EdgeTypeDescriptor,
  FieldDescriptor,
  JsonValue,
  SchemaDescriptor,
  ValueType,
  VectorTypeDescriptor,
} from "../../core/schema.js";
import { compareStrings } from "../../core/text-order.js";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { checkValue } from "../../core/values.js";
import { isFloatScalar } from "../../core/scalars.js";
import type { ItemKind } from "./keys.js";

export interface FieldInfo {
  readonly name: string;
  readonly descriptor: FieldDescriptor;
  /** The canonical literal default, or undefined. */
  readonly literalDefault: JsonValue | undefined;
  readonly defaultNow: boolean;
}

export interface TypeInfo {
  readonly kind: ItemKind;
  readonly name: string;
  /** Declaration order. */
  readonly fields: readonly FieldInfo[];
  readonly fieldByName: ReadonlyMap<string, FieldInfo>;
  /** Fields with INDEX or UNIQUE INDEX. */
  readonly indexed: readonly FieldInfo[];
  readonly hasDefaults: boolean;
  /** Some field is DEFAULT NOW (so creating a record needs the clock). */
  readonly hasNowDefault: boolean;
  /** "name, age" for messages. */
  readonly fieldList: string;
}

export interface EdgeTypeInfo extends TypeInfo {
  readonly from: string;
  readonly to: string;
  readonly unique: boolean;
}

// Every error here is a StrandError (SCHEMA_MISMATCH): a descriptor the compiler would not have
// produced (a hand-built schema, or generated code out of step with it) refuses the open, or the
// request, with a message, never as an internal error.

/**
 * Names that cannot be a member of a stored record or object value: records are msgpack maps,
 * and msgpackr reads a "__proto__" key back as "__proto_" (the compiler reports E104).
 */
function checkMemberNames(where: string, type: ValueType): void {
  if (type.kind === "array") checkMemberNames(where, type.element);
  if (type.kind !== "object") return;
  for (const m of type.fields) {
    if (m.name === "__proto__")
      throw new StrandError("SCHEMA_MISMATCH", `schema: ${where} has a member named '__proto__', which cannot be stored`);
    checkMemberNames(`${where}.${m.name}`, m.type);
  }
}

function buildType(kind: ItemKind, name: string, fields: readonly FieldDescriptor[]): TypeInfo {
  const infos: FieldInfo[] = fields.map((f) => {
    if (f.name === "__proto__")
      throw new StrandError("SCHEMA_MISMATCH", `schema: ${kind}::${name} has a field named '__proto__', which cannot be stored`);
    checkMemberNames(`${kind}::${name}.${f.name}`, f.type);
    let literalDefault: JsonValue | undefined;
    if (f.default?.kind === "literal") {
      const r = checkValue(f.type, f.default.value, `${name}.${f.name}`);
      if (!r.ok) throw new StrandError("SCHEMA_MISMATCH", `schema: invalid DEFAULT for ${name}.${f.name}: ${r.message}`);
      literalDefault = r.value;
    }
    return { name: f.name, descriptor: f, literalDefault, defaultNow: f.default?.kind === "now" };
  });
  return {
    kind,
    name,
    fields: infos,
    fieldByName: new Map(infos.map((f) => [f.name, f])),
    indexed: infos.filter((f) => f.descriptor.index !== "none"),
    hasDefaults: infos.some((f) => f.literalDefault !== undefined || f.defaultNow),
    hasNowDefault: infos.some((f) => f.defaultNow),
    fieldList: infos.length > 0 ? infos.map((f) => f.name).join(", ") : "none",
  };
}

function buildEdge(e: EdgeTypeDescriptor): EdgeTypeInfo {
  return { ...buildType("E", e.name, e.fields), from: e.from, to: e.to, unique: e.unique };
}

export interface VectorTypeInfo extends TypeInfo {
  /** The `embedding: [F64]` field that holds the vector, or null: the vector is the `data` member. */
  readonly embedding: FieldInfo | null;
}

function buildVector(v: VectorTypeDescriptor): VectorTypeInfo {
  const info = buildType("V", v.name, v.fields);
  const field = info.fieldByName.get("embedding");
  const t = field?.descriptor.type;
  const isVector = t?.kind === "array" && t.element.kind === "scalar" && isFloatScalar(t.element.name);
  return { ...info, embedding: isVector ? field! : null };
}

/** Each vector type with the member its records hold the vector in: its `embedding` field, or `data`. */
export function vectorMembersOf(schema: SchemaInfo): [string, string][] {
  return [...schema.vectors.values()].map((v) => [v.name, v.embedding?.name ?? "data"]);
}

export class SchemaInfo {
  readonly nodes: ReadonlyMap<string, TypeInfo>;
  readonly edges: ReadonlyMap<string, EdgeTypeInfo>;
  readonly vectors: ReadonlyMap<string, VectorTypeInfo>;

  constructor(readonly descriptor: SchemaDescriptor) {
    this.nodes = new Map(descriptor.nodes.map((n) => [n.name, buildType("N", n.name, n.fields)]));
    this.edges = new Map(descriptor.edges.map((e) => [e.name, buildEdge(e)]));
    this.vectors = new Map((descriptor.vectors ?? []).map((v) => [v.name, buildVector(v)]));
    // Code point order is the order of the labels' UTF-8 key bytes.
    const sorted = (names: Iterable<string>): string[] => [...names].sort(compareStrings);
    this.sortedLabels = { N: sorted(this.nodes.keys()), E: sorted(this.edges.keys()), V: sorted(this.vectors.keys()) };
    const scored = [...this.nodes.values(), ...this.vectors.values()].filter((t) => t.fieldByName.has("score"));
    this.scoreLabels = new Set(scored.map((t) => t.name));
  }

  /**
   * The node and vector types that declare a `score` field of their own: RerankRRF leaves such
   * an item's score as stored (runtime/ops/rerank.ts).
   */
  readonly scoreLabels: ReadonlySet<string>;

  /** The type names of a kind in code point order (the key order of their records). */
  labelsOf(kind: ItemKind): readonly string[] {
    return this.sortedLabels[kind];
  }

  private readonly sortedLabels: Readonly<Record<ItemKind, readonly string[]>>;

  /** Every node and vector type (what an edge may join), node types first, each in code point order. */
  nodeLabels(): readonly string[] {
    return [...this.sortedLabels.N, ...this.sortedLabels.V];
  }

  /**
   * A node or vector type: vectors are graph items stored like nodes (N and V names are
   * distinct), so every node read, graph step and edge endpoint accepts V labels.
   * An unknown label means generated code and schema disagree: a bug, not a user error.
   */
  node(label: string): TypeInfo {
    const t = this.nodes.get(label) ?? this.vectors.get(label);
    if (!t) throw new StrandError("SCHEMA_MISMATCH", `unknown node type '${echo(label)}'`);
    return t;
  }

  vector(label: string): VectorTypeInfo {
    const t = this.vectors.get(label);
    if (!t) throw new StrandError("SCHEMA_MISMATCH", `unknown vector type '${echo(label)}'`);
    return t;
  }

  edge(label: string): EdgeTypeInfo {
    const t = this.edges.get(label);
    if (!t) throw new StrandError("SCHEMA_MISMATCH", `unknown edge type '${echo(label)}'`);
    return t;
  }
}
