// `queries/<Name>.ts`: a query's typed parameters and result, its `run(db, params)` function and
// the `QueryModule` object the server loads.
import { StructureKind, type WriterFunction } from "ts-morph";
import type { QueryIr } from "../ir/ir.js";
import { tsTypeOf } from "../ir/value-types.js";
import { propertyKey, tsTypeOfStatic, type ExpressionContext, type KindLabels } from "./expressions.js";
import { queryObjectLines, runBody } from "./run-body.js";
import type { CodegenOptions, FileStructure, Statement } from "./structures.js";

/** The TypeScript type of a query's parameters: the JSON body of POST /<Name>. */
export function paramsTypeText(query: QueryIr): string {
  if (query.params.length === 0) return "Record<string, never>";
  return `{ ${query.params.map((p) => `${propertyKey(p.name)}${p.optional ? "?" : ""}: ${tsTypeOf(p.type)}`).join("; ")} }`;
}

/** The TypeScript type of a query's answer (record types it names are added to ctx.usedTypes). */
export function resultTypeTextOf(query: QueryIr, ctx: ExpressionContext): string {
  if (query.returns === null) return "null";
  if (query.returns.kind === "value") return tsTypeOfStatic(query.returns.value.type, ctx);
  return `{ ${query.returns.members.map((r) => `${propertyKey(r.key)}: ${tsTypeOfStatic(r.value.type, ctx)}`).join("; ")} }`;
}

export function queryModule(query: QueryIr, options: CodegenOptions, labels: KindLabels): FileStructure {
  const statements: Statement[] = [];
  const path = `/queries/${query.name}.ts`;
  const ctx: ExpressionContext = { usesList: false, usedTypes: new Set(), labels, constants: new Map() };
  const paramsType = `${query.name}Params`;
  const resultType = `${query.name}Result`;

  const bodyLines = runBody(query, ctx);
  const resultTypeText = resultTypeTextOf(query, ctx);

  const runtimeTypes = ["QueryContext", "QueryModule"];
  const resultText = resultTypeText + bodyLines.join("\n");
  if (resultText.includes("GroupCount")) runtimeTypes.push("GroupCount");
  if (resultText.includes("AggregateGroup")) runtimeTypes.push("AggregateGroup");
  if (resultText.includes("Path[]")) runtimeTypes.push("Path");
  statements.push({
    kind: StructureKind.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: options.runtimeImport,
    namedImports: runtimeTypes.sort(),
  });
  if (ctx.usedTypes.size > 0) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: "../schema.js",
      namedImports: [...ctx.usedTypes].sort(),
    });
  }

  statements.push({
    kind: StructureKind.TypeAlias,
    isExported: true,
    name: paramsType,
    type: paramsTypeText(query),
    docs: [`Parameters of ${query.name}: the JSON body of POST /${query.name}.`],
  });
  statements.push({
    kind: StructureKind.TypeAlias,
    isExported: true,
    name: resultType,
    type: resultTypeText,
    docs: [`The JSON response of POST /${query.name}.`],
  });

  if (ctx.usesList) {
    statements.push({
      kind: StructureKind.Function,
      name: "list",
      typeParameters: ["T"],
      parameters: [{ name: "item", type: "T | null" }],
      returnType: "T[]",
      docs: ["Zero or one item as a list."],
      statements: "return item === null ? [] : [item];",
    });
  }

  if (ctx.constants.size > 0) {
    const lines = [...ctx.constants].map(([init, name]) => `const ${name} = ${init};`);
    statements.push(
      [
        "// Static data of the calls below: where math arguments come from (QueryContext.math), count steps (countAdjacent).",
        ...lines,
      ].join("\n"),
    );
  }

  const run: WriterFunction = (writer) => {
    writer.write(`function run(db: QueryContext, params: ${paramsType}): ${resultType}`).block(() => {
      for (const line of bodyLines) writer.writeLine(line);
    });
  };
  statements.push(run);

  statements.push(queryObjectLines(query, `const query: QueryModule<${paramsType}, ${resultType}>`).join("\n"));
  statements.push({ kind: StructureKind.ExportAssignment, isExportEquals: false, expression: "query" });
  return { path, statements };
}
