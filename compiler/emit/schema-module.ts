// `schema.ts`: a record type per node, vector and edge type, and the schema descriptor.
import { StructureKind } from "ts-morph";
import { tsTypeOf } from "../ir/value-types.js";
import { propertyKey } from "./expressions.js";
import type { FieldDescriptor, SchemaDescriptor } from "../../core/schema.js";
import type { CodegenOptions, FileStructure, Statement } from "./structures.js";

export function schemaModule(schema: SchemaDescriptor, options: CodegenOptions): FileStructure {
  const statements: Statement[] = [];
  const path = "/schema.ts";
  statements.push({
    kind: StructureKind.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: options.runtimeImport,
    namedImports: [
      ...(schema.edges.length > 0 ? ["EdgeItem"] : []),
      ...(schema.nodes.length + schema.vectors.length > 0 ? ["NodeItem"] : []),
      "SchemaDescriptor",
    ],
  });
  statements.push(...recordTypes(schema));
  statements.push(`export const schema: SchemaDescriptor = ${schemaLiteral(schema)};`);
  return { path, statements };
}

/** One exported record type per node, vector and edge type, as clients receive them (also in client-types.ts). */
export function recordTypes(schema: SchemaDescriptor): Statement[] {
  const statements: Statement[] = [];
  for (const node of schema.nodes) {
    statements.push({
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: node.name,
      type: recordType("NodeItem", node.name, node.fields),
      docs: [`A ${node.name} node as clients receive it.`],
    });
  }
  for (const vector of schema.vectors) {
    // The embedding is `data` unless the type declares an `embedding` field; `score` is set in search results.
    const extra = vector.fields.some((f) => f.name === "embedding") ? "score?: number" : "data?: number[]; score?: number";
    statements.push({
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: vector.name,
      type: recordType("NodeItem", vector.name, vector.fields, extra),
      docs: [`A ${vector.name} vector as clients receive it.`],
    });
  }
  for (const edge of schema.edges) {
    statements.push({
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: edge.name,
      type: recordType("EdgeItem", edge.name, edge.fields),
      docs: [`A ${edge.name} edge (${edge.from} → ${edge.to}) as clients receive it.`],
    });
  }
  return statements;
}

/** The descriptor as a literal with one line per field, so diffs of generated/ stay readable. */
function schemaLiteral(schema: SchemaDescriptor): string {
  const typeBlock = (t: { name: string; fields: readonly FieldDescriptor[] }, extra: string): string => {
    const fields = t.fields.map((f) => `        ${JSON.stringify(f)},`).join("\n");
    return `    {\n      "name": ${JSON.stringify(t.name)},${extra}\n      "fields": [${fields === "" ? "" : `\n${fields}\n      `}],\n    },`;
  };
  const section = (name: string, blocks: string[]): string =>
    `  ${JSON.stringify(name)}: [${blocks.length === 0 ? "" : `\n${blocks.join("\n")}\n  `}],`;
  return [
    "{",
    section(
      "nodes",
      schema.nodes.map((n) => typeBlock(n, "")),
    ),
    section(
      "vectors",
      schema.vectors.map((v) => typeBlock(v, "")),
    ),
    section(
      "edges",
      schema.edges.map((e) => typeBlock(e, ` "from": ${JSON.stringify(e.from)}, "to": ${JSON.stringify(e.to)}, "unique": ${e.unique},`)),
    ),
    ...(schema.version !== undefined ? [`  "version": ${schema.version},`] : []),
    ...(schema.migrations !== undefined
      ? [
          `  "migrations": [${schema.migrations.map((m) => `\n    ${JSON.stringify(m)},`).join("")}${schema.migrations.length > 0 ? "\n  " : ""}],`,
        ]
      : []),
    "}",
  ].join("\n");
}

/** Fields with a default are always present; others only when written. */
function recordType(base: string, label: string, fields: readonly FieldDescriptor[], extra?: string): string {
  const members = [
    `label: ${JSON.stringify(label)}`,
    ...(extra !== undefined ? [extra] : []),
    ...fields.map((f) => `${propertyKey(f.name)}${f.default === null ? "?" : ""}: ${tsTypeOf(f.type)}`),
  ];
  return `${base} & { ${members.join("; ")} }`;
}
