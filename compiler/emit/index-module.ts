// `index.ts`: every compiled query module and the schema, for the server to load.
import { StructureKind, VariableDeclarationKind } from "ts-morph";
import type { QueryIr } from "../ir/ir.js";
import type { CodegenOptions, FileStructure, Statement } from "./structures.js";

export function indexModule(queries: readonly QueryIr[], options: CodegenOptions): FileStructure {
  const statements: Statement[] = [];
  const path = "/index.ts";
  statements.push({
    kind: StructureKind.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: options.runtimeImport,
    namedImports: ["QueryModule"],
  });
  for (const q of queries)
    statements.push({ kind: StructureKind.ImportDeclaration, defaultImport: q.name, moduleSpecifier: `./queries/${q.name}.js` });
  statements.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: "./schema.js", namedExports: ["schema"] });
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: "queries", type: "QueryModule[]", initializer: `[${queries.map((q) => q.name).join(", ")}]` }],
    docs: ["Every compiled query, in source order."],
  });
  return { path, statements };
}
