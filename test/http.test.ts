// In-process tests of the HTTP layer: hand-written query modules over a real GraphStore in a temp
// directory, driven through Hono's `app.request` (plus a few requests over a real socket, where the
// body is read from the Node stream). Every error path is asserted as exact JSON.
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Hono } from "hono";
import { createApp, startServer, type RunningServer } from "../server/index.js";
import { StrandError } from "../core/errors.js";
import type { QueryModule } from "../core/query-module.js";
import type { SchemaDescriptor, ValueType } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";

const string: ValueType = { kind: "scalar", name: "String" };
const u32: ValueType = { kind: "scalar", name: "U32" };
const id: ValueType = { kind: "scalar", name: "ID" };
const f64s: ValueType = { kind: "array", element: { kind: "scalar", name: "F64" } };

const schema: SchemaDescriptor = {
  nodes: [
    {
      name: "User",
      fields: [
        { name: "handle", type: string, index: "unique", default: null },
        { name: "name", type: string, index: "none", default: null },
        { name: "age", type: u32, index: "none", default: null },
      ],
    },
    { name: "Post", fields: [{ name: "title", type: string, index: "none", default: null }] },
  ],
  vectors: [],
  edges: [{ name: "Follows", from: "User", to: "User", unique: false, fields: [] }],
};

const queries: QueryModule[] = [
  {
    name: "AddUser",
    params: [
      { name: "handle", type: string, optional: false },
      { name: "name", type: string, optional: false },
      { name: "age", type: u32, optional: false },
    ],
    writes: true,
    mcp: false,
    returns: ["user"],
    run: (db, p) => ({ user: db.addNode("User", { handle: p.handle as string, name: p.name as string, age: p.age as number }) }),
  },
  {
    name: "AddPost",
    params: [{ name: "title", type: string, optional: false }],
    writes: true,
    mcp: false,
    returns: ["post"],
    run: (db, p) => ({ post: db.addNode("Post", { title: p.title as string }) }),
  },
  {
    name: "Follow",
    params: [
      { name: "from", type: id, optional: false },
      { name: "to", type: id, optional: false },
    ],
    writes: true,
    mcp: false,
    returns: ["follows"],
    run: (db, p) => ({ follows: db.addEdge("Follows", {}, p.from as string, p.to as string) }),
  },
  {
    name: "GetUser",
    params: [{ name: "id", type: id, optional: false }],
    writes: false,
    mcp: false,
    returns: ["user"],
    run: (db, p) => ({ user: db.nodeById("User", p.id as string) }),
  },
  {
    name: "CountUsers",
    params: [],
    writes: false,
    mcp: false,
    returns: ["total"],
    run: (db) => ({ total: db.count(db.nodesByLabel("User")) }),
  },
  {
    name: "Echo",
    params: [
      { name: "scores", type: f64s, optional: false },
      { name: "note", type: string, optional: true },
    ],
    writes: false,
    mcp: true,
    returns: ["scores", "note"],
    run: (_db, p) => ({ scores: p.scores as number[], note: (p.note as string | undefined) ?? null }),
  },
  {
    name: "AddUserThenFail",
    params: [{ name: "handle", type: string, optional: false }],
    writes: true,
    mcp: false,
    returns: [],
    run: (db, p) => {
      db.addNode("User", { handle: p.handle as string, name: "never", age: 1 });
      throw new StrandError("INVALID_VALUE", "rejected after writing");
    },
  },
  {
    name: "Boom",
    params: [],
    writes: false,
    mcp: false,
    returns: [],
    run: () => {
      throw new TypeError("kaboom");
    },
  },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dataDir: string;
let store: GraphStore;
let app: Hono;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "strand-http-"));
  store = GraphStore.open({ path: dataDir, schema });
  app = createApp({ store, queries, schema });
});

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

interface Reply {
  status: number;
  contentType: string | null;
  body: unknown;
}

/**
 * String bodies are sent as bytes, so that fetch adds no implicit `text/plain` content type. A POST
 * without a content type gets application/json unless `bare` (the server requires it).
 */
async function send(target: Hono, path: string, init: RequestInit = {}, bare = false): Promise<Reply> {
  const body = typeof init.body === "string" ? new TextEncoder().encode(init.body) : init.body;
  const headers = new Headers(init.headers);
  if (init.method === "POST" && !bare && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await target.request(path, { ...init, headers, body });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get("content-type"), body: JSON.parse(text) as unknown };
}

function post(path: string, body: unknown, headers: Record<string, string> = { "content-type": "application/json" }): Promise<Reply> {
  return send(app, path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

function error(status: number, code: string, message: string): Reply {
  return { status, contentType: "application/json", body: { error: message, code } };
}

function ok(body: unknown): Reply {
  return { status: 200, contentType: "application/json", body };
}

let handleCounter = 0;
async function addUser(name = "Ann", age = 30): Promise<{ id: string; label: string; handle: string; name: string; age: number }> {
  const handle = `user${++handleCounter}`;
  const reply = await post("/AddUser", { handle, name, age });
  expect(reply.status).toBe(200);
  const user = (reply.body as { user: { id: string; label: string; handle: string; name: string; age: number } }).user;
  expect(user.id).toMatch(UUID);
  expect(user).toEqual({ id: user.id, label: "User", handle, name, age });
  return user;
}

describe("service routes", () => {
  it("GET /health", async () => {
    expect(await send(app, "/health")).toEqual(ok({ status: "ok" }));
  });

  it("GET /introspect describes schema and queries", async () => {
    expect(await send(app, "/introspect")).toEqual(
      ok({
        schema: {
          nodes: [
            { name: "User", properties: { handle: "String", name: "String", age: "U32" } },
            { name: "Post", properties: { title: "String" } },
          ],
          vectors: [],
          edges: [{ name: "Follows", from: "User", to: "User", properties: {} }],
        },
        queries: [
          { name: "AddUser", parameters: { handle: "String", name: "String", age: "U32" }, returns: ["user"] },
          { name: "AddPost", parameters: { title: "String" }, returns: ["post"] },
          { name: "Follow", parameters: { from: "ID", to: "ID" }, returns: ["follows"] },
          { name: "GetUser", parameters: { id: "ID" }, returns: ["user"] },
          { name: "CountUsers", parameters: {}, returns: ["total"] },
          { name: "Echo", parameters: { scores: "[F64]", note: "String?" }, returns: ["scores", "note"] },
          { name: "AddUserThenFail", parameters: { handle: "String" }, returns: [] },
          { name: "Boom", parameters: {}, returns: [] },
        ],
      }),
    );
  });

  it("unknown paths are a JSON 404", async () => {
    expect(await send(app, "/nope/deeper")).toEqual(error(404, "NOT_FOUND", "no route for GET /nope/deeper"));
    expect(await send(app, "/", { method: "POST" })).toEqual(error(404, "NOT_FOUND", "no route for POST /"));
    expect(await send(app, "/GetUser/", { method: "POST", body: "{}" })).toEqual(error(404, "NOT_FOUND", "no route for POST /GetUser/"));
  });

  it("wrong methods are 405 with Allow", async () => {
    const res = await app.request("/GetUser");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({ error: "method GET is not allowed on /GetUser; use POST", code: "METHOD_NOT_ALLOWED" });
    expect(await send(app, "/CountUsers", { method: "PUT", body: "{}" })).toEqual(
      error(405, "METHOD_NOT_ALLOWED", "method PUT is not allowed on /CountUsers; use POST"),
    );
    expect(await send(app, "/health", { method: "POST", body: "{}" })).toEqual(
      error(405, "METHOD_NOT_ALLOWED", "method POST is not allowed on /health; use GET"),
    );
    expect(await send(app, "/introspect", { method: "DELETE" })).toEqual(
      error(405, "METHOD_NOT_ALLOWED", "method DELETE is not allowed on /introspect; use GET"),
    );
  });
});

describe("POST /<QueryName>", () => {
  it("runs a write and then a read of it", async () => {
    const user = await addUser("Bea", 41);
    expect(await post("/GetUser", { id: user.id })).toEqual(ok({ user }));
  });

  it("unknown queries are 404 with a suggestion; names are case-sensitive", async () => {
    expect(await post("/GetUsr", {})).toEqual(error(404, "UNKNOWN_QUERY", 'unknown query "GetUsr"; did you mean "GetUser"?'));
    expect(await post("/getuser", {})).toEqual(error(404, "UNKNOWN_QUERY", 'unknown query "getuser"; did you mean "GetUser"?'));
    expect(await post("/Completely_Different", {})).toEqual(error(404, "UNKNOWN_QUERY", 'unknown query "Completely_Different"'));
  });

  it("accepts application/json with or without charset", async () => {
    const before = ((await post("/CountUsers", {})).body as { total: number }).total;
    const variants: Record<string, string>[] = [
      { "content-type": "application/json" },
      { "content-type": "application/json; charset=utf-8" },
      { "content-type": 'Application/JSON;Charset="UTF-8"' },
    ];
    for (const headers of variants) {
      expect(await post("/CountUsers", "{}", headers)).toEqual(ok({ total: before }));
    }
  });

  it("refuses a POST without a content type (a browser can send one cross-origin without a preflight)", async () => {
    const expected = error(415, "UNSUPPORTED_MEDIA_TYPE", "missing Content-Type: send the parameters with Content-Type: application/json");
    expect(await send(app, "/CountUsers", { method: "POST", body: "{}" }, true)).toEqual(expected);
    expect(await send(app, "/CountUsers", { method: "POST" }, true)).toEqual(expected);
    expect(await send(app, "/mcp/init", { method: "POST", body: "{}" }, true)).toEqual(expected);
  });

  it("rejects other content types with 415", async () => {
    expect(await post("/CountUsers", "{}", { "content-type": "text/plain" })).toEqual(
      error(415, "UNSUPPORTED_MEDIA_TYPE", 'unsupported content type "text/plain": send the parameters as application/json'),
    );
    expect(await post("/CountUsers", "{}", { "content-type": "application/json; charset=latin1" })).toEqual(
      error(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        'unsupported content type "application/json; charset=latin1": send the parameters as application/json',
      ),
    );
    expect(await post("/CountUsers", "a=1", { "content-type": "application/x-www-form-urlencoded" })).toEqual(
      error(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        'unsupported content type "application/x-www-form-urlencoded": send the parameters as application/json',
      ),
    );
  });

  it("an empty body counts as {}", async () => {
    const before = ((await post("/CountUsers", {})).body as { total: number }).total;
    expect(await send(app, "/CountUsers", { method: "POST" })).toEqual(ok({ total: before }));
    expect(await post("/CountUsers", "")).toEqual(ok({ total: before }));
    expect(await post("/CountUsers", " \n ")).toEqual(ok({ total: before }));
    expect(await post("/AddUser", "")).toEqual(error(400, "MISSING_PARAMETER", "missing required parameter 'handle'"));
  });

  it("bad JSON is 400 with the position of the error", async () => {
    expect(await post("/GetUser", '{"id": }')).toEqual(
      error(400, "INVALID_JSON", "invalid JSON at position 7 (line 1, column 8): unexpected '}'"),
    );
    expect(await post("/GetUser", '{\n  "id": "x",\n}')).toEqual(
      error(
        400,
        "INVALID_JSON",
        "invalid JSON at position 15 (line 3, column 1): unexpected '}', expected a property name in double quotes",
      ),
    );
    expect(await post("/GetUser", '{"id": "abc')).toEqual(
      error(400, "INVALID_JSON", "invalid JSON at position 11 (line 1, column 12): unterminated string"),
    );
    expect(await post("/GetUser", "{} {}")).toEqual(
      error(400, "INVALID_JSON", "invalid JSON at position 3 (line 1, column 4): unexpected '{' after the JSON value"),
    );
    const invalidUtf8 = await send(app, "/GetUser", { method: "POST", body: new Uint8Array([0x7b, 0xff, 0x7d]) });
    expect(invalidUtf8).toEqual(error(400, "INVALID_JSON", "request body is not valid UTF-8"));
  });

  it("the body must be an object of parameters", async () => {
    const expected = error(400, "INVALID_BODY", "request body must be a JSON object of parameters");
    expect(await post("/CountUsers", "[]")).toEqual(expected);
    expect(await post("/CountUsers", "null")).toEqual(expected);
    expect(await post("/CountUsers", '"x"')).toEqual(expected);
  });

  it("missing, unknown and mistyped parameters are 400 naming the parameter", async () => {
    expect(await post("/AddUser", { handle: "h", name: "n" })).toEqual(error(400, "MISSING_PARAMETER", "missing required parameter 'age'"));
    expect(await post("/AddUser", { handle: "h", name: "n", age: 3, extra: 1 })).toEqual(
      error(400, "UNKNOWN_PARAMETER", "unknown parameter 'extra' (parameters: handle, name, age)"),
    );
    expect(await post("/CountUsers", { x: 1 })).toEqual(error(400, "UNKNOWN_PARAMETER", "unknown parameter 'x' (parameters: none)"));
    expect(await post("/AddUser", { handle: "h", name: "n", age: "old" })).toEqual(
      error(400, "INVALID_PARAMETER", "parameter 'age' must be an integer between 0 and 4294967295 (U32), got \"old\""),
    );
    expect(await post("/Echo", { scores: [1, "2"] })).toEqual(
      error(400, "INVALID_PARAMETER", "parameter 'scores[1]' must be a finite number (F64), got \"2\""),
    );
  });

  it("optional parameters may be left out", async () => {
    expect(await post("/Echo", { scores: [1.5, 2] })).toEqual(ok({ scores: [1.5, 2], note: null }));
    expect(await post("/Echo", { scores: [], note: "hi" })).toEqual(ok({ scores: [], note: "hi" }));
  });

  it("an unknown id is 404", async () => {
    const missing = "00000000-0000-7000-8000-000000000000";
    expect(await post("/GetUser", { id: missing })).toEqual(error(404, "NOT_FOUND", `N::User with id '${missing}' not found`));
  });

  it("a duplicate unique value is 409 and the write is not committed", async () => {
    const user = await addUser("Cat", 22);
    const before = ((await post("/CountUsers", {})).body as { total: number }).total;
    expect(await post("/AddUser", { handle: user.handle, name: "Other", age: 5 })).toEqual(
      error(409, "UNIQUE_VIOLATION", `UNIQUE INDEX violated: N::User field 'handle' already has value "${user.handle}"`),
    );
    expect(await post("/CountUsers", {})).toEqual(ok({ total: before }));
  });

  it("an edge to a node of the wrong type is 400", async () => {
    const user = await addUser();
    const postReply = await post("/AddPost", { title: "Hello" });
    const created = (postReply.body as { post: { id: string } }).post;
    expect(postReply).toEqual(ok({ post: { id: created.id, label: "Post", title: "Hello" } }));
    expect(await post("/Follow", { from: user.id, to: created.id })).toEqual(
      error(400, "EDGE_TYPE_MISMATCH", `E::Follows must go to a User node, but node '${created.id}' is a Post`),
    );
    const other = await addUser();
    const follows = await post("/Follow", { from: user.id, to: other.id });
    const edge = (follows.body as { follows: { id: string } }).follows;
    expect(follows).toEqual(ok({ follows: { id: edge.id, label: "Follows", from_node: user.id, to_node: other.id } }));
  });

  it("a write that fails after writing commits nothing", async () => {
    const before = ((await post("/CountUsers", {})).body as { total: number }).total;
    expect(await post("/AddUserThenFail", { handle: "ghost" })).toEqual(error(400, "INVALID_VALUE", "rejected after writing"));
    expect(await post("/CountUsers", {})).toEqual(ok({ total: before }));
    await addUser("Not a ghost");
    expect(await post("/CountUsers", {})).toEqual(ok({ total: before + 1 }));
  });

  it("bugs are 500 with a generic body and the stack on stderr", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await post("/Boom", {})).toEqual(error(500, "INTERNAL", "internal error"));
    const logged = stderr.mock.calls.map((c) => String(c[0])).join("");
    expect(logged).toContain("TypeError: kaboom");
    expect(logged).toContain("http.test.ts");
  });
});

describe("body limit", () => {
  const limited = (): Hono => createApp({ store, queries, schema, bodyLimitBytes: 64 });
  const tooLarge = error(
    413,
    "PAYLOAD_TOO_LARGE",
    "request body exceeds the limit of 64 bytes; the limit is set by body_limit under [server] in strand.toml or strand serve --body-limit",
  );

  it("accepts a body of exactly the limit", async () => {
    const note = "x".repeat(64 - JSON.stringify({ scores: [], note: "" }).length);
    const body = JSON.stringify({ scores: [], note });
    expect(body.length).toBe(64);
    expect(await send(limited(), "/Echo", { method: "POST", body })).toEqual(ok({ scores: [], note }));
  });

  it("rejects a larger body declared by Content-Length", async () => {
    const body = JSON.stringify({ scores: [], note: "x".repeat(42) });
    expect(body.length).toBe(65);
    expect(await send(limited(), "/Echo", { method: "POST", body })).toEqual(tooLarge);
  });

  it("rejects a larger streamed body with no Content-Length while reading it", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) controller.close();
        else controller.enqueue(new TextEncoder().encode("[1,2,3,4,5,6,7,8,9,10],"));
      },
    });
    const init = { method: "POST", body: stream, duplex: "half" } as RequestInit;
    expect(await send(limited(), "/Echo", init)).toEqual(tooLarge);
    expect(pulled).toBeLessThan(10);
  });
});

describe("api key", () => {
  const keyed = (): Hono => createApp({ store, queries, schema, apiKey: "s3cret-key" });

  it("is required on queries, introspection and unknown paths", async () => {
    expect(await send(keyed(), "/CountUsers", { method: "POST", body: "{}" })).toEqual(
      error(401, "UNAUTHORIZED", "missing x-api-key header"),
    );
    expect(await send(keyed(), "/introspect")).toEqual(error(401, "UNAUTHORIZED", "missing x-api-key header"));
    expect(await send(keyed(), "/nope")).toEqual(error(401, "UNAUTHORIZED", "missing x-api-key header"));
  });

  it("rejects a wrong key of any length", async () => {
    for (const key of ["s3cret-kex", "s", "s3cret-key-and-more"]) {
      expect(await send(keyed(), "/CountUsers", { method: "POST", body: "{}", headers: { "x-api-key": key } })).toEqual(
        error(401, "UNAUTHORIZED", "invalid api key"),
      );
    }
  });

  it("accepts the right key; /health stays public", async () => {
    const reply = await send(keyed(), "/CountUsers", { method: "POST", body: "{}", headers: { "x-api-key": "s3cret-key" } });
    expect(reply.status).toBe(200);
    expect(await send(keyed(), "/health")).toEqual(ok({ status: "ok" }));
  });
});

describe("over a real socket", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ store, queries, schema, port: 0, bodyLimitBytes: 64 });
  });

  afterAll(async () => {
    await server.close();
  });

  function raw(path: string, chunks: string[], headers: Record<string, string>): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: server.port, path, method: "POST", headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"] ?? null, body: JSON.parse(text) as unknown }),
        );
      });
      req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
      for (const c of chunks) req.write(c);
      req.end();
    });
  }

  it("serves a query, reading the Node request stream", async () => {
    const reply = await raw("/Echo", ['{"scores":', "[1,2]}"], { "content-type": "application/json" });
    expect(reply).toEqual(ok({ scores: [1, 2], note: null }));
  });

  it("stops a chunked body at the limit", async () => {
    const chunks = Array.from({ length: 50 }, () => "[1,2,3,4,5,6,7,8,9],");
    expect(await raw("/Echo", chunks, { "content-type": "application/json", "transfer-encoding": "chunked" })).toEqual(
      error(
        413,
        "PAYLOAD_TOO_LARGE",
        "request body exceeds the limit of 64 bytes; the limit is set by body_limit under [server] in strand.toml or strand serve --body-limit",
      ),
    );
  });

  it("rejects a declared Content-Length over the limit", async () => {
    expect(await raw("/Echo", ["x".repeat(100)], { "content-type": "application/json", "content-length": "100" })).toEqual(
      error(
        413,
        "PAYLOAD_TOO_LARGE",
        "request body exceeds the limit of 64 bytes; the limit is set by body_limit under [server] in strand.toml or strand serve --body-limit",
      ),
    );
  });
});
