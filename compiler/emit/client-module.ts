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
      {
        name: "retries",
        hasQuestionToken: true,
        type: "number",
        docs: [
          "Attempts after the first when the request failed on the way (a network error) or the server asks for a retry (503 SERVER_BUSY, NOT_REPLICATED, REPLICA_BEHIND); default 2, 0: none. A write keeps its Idempotency-Key across them, so it takes effect once.",
        ],
      },
      {
        name: "idempotencyKey",
        hasQuestionToken: true,
        type: "() => string",
        docs: ["Makes each write call's Idempotency-Key (default: crypto.randomUUID())."],
      },
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
  statements.push(
    "/** 503 answers the server asks the client to retry: busy, a write not yet replicated (a retry with its key answers once it is), a replica behind the bookmark. */",
    'const RETRIED_CODES: readonly string[] = ["SERVER_BUSY", "NOT_REPLICATED", "REPLICA_BEHIND"];',
    "/** Before attempt `attempt + 1`: the server's Retry-After (seconds, at most 5), else 100 ms, 400 ms, 1.6 s, ... */",
    "function retryPause(attempt: number, retryAfter: string | null): Promise<void> {",
    "  const asked = retryAfter === null ? Number.NaN : Number(retryAfter) * 1000;",
    "  const ms = Number.isFinite(asked) && asked >= 0 ? Math.min(asked, 5000) : 100 * 4 ** attempt;",
    "  return new Promise((done) => setTimeout(done, ms));",
    "}",
  );
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
          { name: "writes", type: "boolean", initializer: "false" },
        ],
        returnType: "Promise<R>",
        docs: [
          "POST /<name> with the parameters as JSON. A write carries an Idempotency-Key, the same on each retry, so the server runs it once and answers a retry with the stored answer.",
        ],
        statements: [
          'const headers: Record<string, string> = { "content-type": "application/json" };',
          'if (this.options.apiKey !== undefined) headers["x-api-key"] = this.options.apiKey;',
          'if (writes) headers["idempotency-key"] = this.options.idempotencyKey?.() ?? crypto.randomUUID();',
          "const doFetch = this.options.fetch ?? fetch;",
          "const retries = this.options.retries ?? 2;",
          "for (let attempt = 0; ; attempt++) {",
          '  if (this.lastCommit > 0) headers["strand-after"] = String(this.lastCommit);',
          "  let response: Response;",
          "  try {",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: generated code, as text
          '    response = await doFetch(`${this.baseUrl}/${name}`, { method: "POST", headers, body: JSON.stringify(params) });',
          "  } catch (error) {",
          "    if (attempt >= retries) throw error;",
          "    await retryPause(attempt, null);",
          "    continue;",
          "  }",
          '  const commit = Number(response.headers.get("strand-commit"));',
          "  if (Number.isSafeInteger(commit) && commit > this.lastCommit) this.lastCommit = commit;",
          "  const body: unknown = await response.json();",
          "  if (response.ok) return body as R;",
          "  const err = (body ?? {}) as { error?: string; code?: string };",
          '  if (response.status === 503 && RETRIED_CODES.includes(err.code ?? "") && attempt < retries) {',
          '    await retryPause(attempt, response.headers.get("retry-after"));',
          "    continue;",
          "  }",
          '  throw new StrandQueryError(response.status, err.code ?? "UNKNOWN", err.error ?? response.statusText);',
          "}",
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
          statements: [`return this.query<${q.name}Result>(${JSON.stringify(q.name)}, params${q.writes ? ", true" : ""});`],
        };
      }),
    ],
  });
  return { path, statements };
}
