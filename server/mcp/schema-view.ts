// The schema as the agent tools see it: every type name with its kind, the declared type of every
// property an item of that type can carry (its fields plus the identity members), and the edge
// endpoints. Unknown names are 400s that name the request field and suggest the closest name.
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import type { EdgeTypeDescriptor, FieldDescriptor, ScalarName, SchemaDescriptor, ValueType } from "../../core/schema.js";
import { closestName } from "../../core/suggest.js";
import { isFloatScalar } from "../../core/scalars.js";

export type TypeKind = "node" | "vector" | "edge";

export interface TypeView {
  readonly name: string;
  readonly kind: TypeKind;
  /** Property name → declared type, identity members included (id, label, from_node, ...). */
  readonly properties: ReadonlyMap<string, ValueType>;
  /** Vector types: the member holding the vector (`embedding` when declared as a number list, else `data`). */
  readonly vectorField?: string;
}

export interface EdgeView extends TypeView {
  readonly kind: "edge";
  readonly from: string;
  readonly to: string;
}

const scalar = (name: ScalarName): ValueType => ({ kind: "scalar", name });
const F64S: ValueType = { kind: "array", element: scalar("F64") };

function propertyMap(fields: readonly FieldDescriptor[], identity: Array<[string, ValueType]>): Map<string, ValueType> {
  const map = new Map<string, ValueType>(identity);
  for (const f of fields) map.set(f.name, f.type);
  return map;
}

export class SchemaView {
  private readonly types = new Map<string, TypeView>();

  constructor(readonly descriptor: SchemaDescriptor) {
    const base: Array<[string, ValueType]> = [
      ["id", scalar("ID")],
      ["label", scalar("String")],
    ];
    for (const n of descriptor.nodes) this.add({ name: n.name, kind: "node", properties: propertyMap(n.fields, base) });
    for (const v of descriptor.vectors) {
      // A vector also carries its embedding (`data`) and, in search results, `score`.
      const embedding = v.fields.find((f) => f.name === "embedding" && isNumberList(f.type));
      const identity: Array<[string, ValueType]> = [
        ...base,
        ...(embedding ? [] : [["data", F64S] as [string, ValueType]]),
        ["score", scalar("F64")],
      ];
      this.add({
        name: v.name,
        kind: "vector",
        properties: propertyMap(v.fields, identity),
        vectorField: embedding ? "embedding" : "data",
      });
    }
    for (const e of descriptor.edges) this.add(edgeView(e, base));
  }

  private add(view: TypeView): void {
    if (this.types.has(view.name)) throw new Error(`schema: type name '${view.name}' is used twice`);
    this.types.set(view.name, view);
  }

  get(name: string): TypeView | undefined {
    return this.types.get(name);
  }

  /** Type names of one kind, in declaration order. */
  names(kind: TypeKind): string[] {
    return [...this.types.values()].filter((t) => t.kind === kind).map((t) => t.name);
  }

  /** The type `name` of the given kind (or of one of the kinds); INVALID_PARAMETER naming `field` otherwise. */
  require(name: string, kind: TypeKind | readonly TypeKind[], field: string): TypeView {
    const kinds: readonly TypeKind[] = typeof kind === "string" ? [kind] : kind;
    const view = this.types.get(name);
    if (view !== undefined && kinds.includes(view.kind)) return view;
    const known = kinds.flatMap((k) => this.names(k));
    const suggestion = closestName(name, known);
    const what = `${kinds.join(" or ")} type`;
    const hint =
      view !== undefined
        ? ` ('${name}' is ${view.kind === "edge" ? "an" : "a"} ${view.kind} type)`
        : suggestion !== undefined
          ? `; did you mean '${suggestion}'?`
          : ` (known: ${known.length > 0 ? known.join(", ") : "none"})`;
    throw new StrandError("INVALID_PARAMETER", `'${field}': unknown ${what} '${echo(name)}'${hint}`);
  }

  edge(name: string, field: string): EdgeView {
    return this.require(name, "edge", field) as EdgeView;
  }
}

function isNumberList(type: ValueType): boolean {
  return type.kind === "array" && type.element.kind === "scalar" && isFloatScalar(type.element.name);
}

function edgeView(e: EdgeTypeDescriptor, base: Array<[string, ValueType]>): EdgeView {
  const identity: Array<[string, ValueType]> = [...base, ["from_node", scalar("ID")], ["to_node", scalar("ID")]];
  return { name: e.name, kind: "edge", properties: propertyMap(e.fields, identity), from: e.from, to: e.to };
}
