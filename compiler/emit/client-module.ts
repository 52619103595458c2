// `client.ts`: the typed SDK, a StrandClient with one method per query. It imports only its
// types (client-types.ts), so the two files work without Strand installed, in Node or a browser.
import { StructureKind } from "ts-morph";
import type { QueryIr } from "../ir/ir.js";
import type { FileStructure, Statement } from "./structures.js";

/** The file beside client.ts with its types (client-types-module.ts). */
const CLIENT_TYPES = "./client-types.js";

export function clientModule(queries: readonly QueryIr[]): FileStructure {
  const statements: Statement[] = [];
  const path = "/client.ts";
  if (queries.length > 0) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: CLIENT_TYPES,
      namedImports: queries.flatMap((q) => [`${q.name}Params`, `${q.name}Result`]),
    });
  }
  statements.push(`export type * from ${JSON.stringify(CLIENT_TYPES)};`);
  statements.push({
    kind: StructureKind.Interface,
    isExported: true,
    name: "StrandClientOptions",
    properties: [
      { name: "apiKey", hasQuestionToken: true, type: "string", docs: ["Sent as the x-api-key header."] },
      { name: "fetch", hasQuestionToken: true, type: "typeof fetch", docs: ["A fetch implementation (defaults to the global one)."] },
    ],
  });
  statements.push({
    kind: StructureKind.Class,
    isExported: true,
    name: "StrandQueryError",
    extends: "Error",
    docs: ["A query the server refused: `status` is the HTTP status, `code` the error code."],
    properties: [
      { name: "status", isReadonly: true, type: "number" },
      { name: "code", isReadonly: true, type: "string" },
    ],
    ctors: [
      {
        parameters: [
          { name: "status", type: "number" },
          { name: "code", type: "string" },
          { name: "message", type: "string" },
        ],
        statements: ["super(message);", 'this.name = "StrandQueryError";', "this.status = status;", "this.code = code;"],
      },
    ],
  });
  const methodNames = new Set<string>(["query", "constructor"]);
  statements.push({
    kind: StructureKind.Class,
    isExported: true,
    name: "StrandClient",
    docs: ["Typed access to every query: `await new StrandClient().getUser({ id })`."],
    properties: [
      { name: "baseUrl", isReadonly: true, scope: undefined, type: "string" },
      { name: "options", isReadonly: true, type: "StrandClientOptions" },
      {
        name: "lastCommit",
        type: "number",
        initializer: "0",
        docs: [
          "The highest `Strand-Commit` any answer carried: sent back as `Strand-After`, so a read on a replica waits until it has every write this client saw (read-your-writes). Copy it to another client to share the bookmark.",
        ],
      },
    ],
    ctors: [
      {
        parameters: [
          { name: "baseUrl", type: "string", initializer: '"http://localhost:6969"' },
          { name: "options", type: "StrandClientOptions", initializer: "{}" },
        ],
        statements: ['this.baseUrl = baseUrl.replace(/\\/+$/, "");', "this.options = options;"],
      },
    ],
    methods: [
      {
        kind: StructureKind.Method,
        name: "query",
        isAsync: true,
        typeParameters: ["R"],
        parameters: [
          { name: "name", type: "string" },
          { name: "params", type: "object" },
        ],
        returnType: "Promise<R>",
        docs: ["POST /<name> with the parameters as JSON."],
        statements: [
          'const headers: Record<string, string> = { "content-type": "application/json" };',
          'if (this.options.apiKey !== undefined) headers["x-api-key"] = this.options.apiKey;',
          'if (this.lastCommit > 0) headers["strand-after"] = String(this.lastCommit);',
          "const doFetch = this.options.fetch ?? fetch;",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: generated code, as text
          'const response = await doFetch(`${this.baseUrl}/${name}`, { method: "POST", headers, body: JSON.stringify(params) });',
          'const commit = Number(response.headers.get("strand-commit"));',
          "if (Number.isSafeInteger(commit) && commit > this.lastCommit) this.lastCommit = commit;",
          "const body: unknown = await response.json();",
          "if (!response.ok) {",
          "  const err = (body ?? {}) as { error?: string; code?: string };",
          '  throw new StrandQueryError(response.status, err.code ?? "UNKNOWN", err.error ?? response.statusText);',
          "}",
          "return body as R;",
        ],
      },
      ...queries.map((q) => {
        let method = q.name.charAt(0).toLowerCase() + q.name.slice(1);
        if (methodNames.has(method)) method = `${method}Query`;
        methodNames.add(method);
        return {
          kind: StructureKind.Method as const,
          name: method,
          parameters: [{ name: "params", type: `${q.name}Params` }],
          returnType: `Promise<${q.name}Result>`,
          docs: [`POST /${q.name}`],
          statements: [`return this.query<${q.name}Result>(${JSON.stringify(q.name)}, params);`],
        };
      }),
    ],
  });
  return { path, statements };
}
