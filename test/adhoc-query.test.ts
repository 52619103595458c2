// `POST /query` (server/adhoc/, compiler/adhoc.ts) on a real `strand serve` of the example: a body
// whose parameters are typed where it uses them, a whole QUERY, diagnostics as `strand check` gives
// them (positions in the text as sent), a write refused without an api key and run with one,
// "explain", bad bodies, and a query compiled once per distinct text.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StrandServer, startStrand, tempDir } from "./support/server.js";

async function ask(server: StrandServer, body: unknown, key?: string): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${server.url}/query`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function call(server: StrandServer, name: string, body: unknown, key?: string): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${server.url}/${name}`, { method: "POST", headers, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json();
}

describe("POST /query", () => {
  let dataDir: string;
  let server: StrandServer;
  let ada: string;

  beforeAll(async () => {
    dataDir = tempDir("strand-adhoc-");
    server = await startStrand({ dataDir });
    const added = (await call(server, "AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 })) as { user: { id: string } };
    ada = added.user.id;
    await call(server, "AddUser", { handle: "alan", name: "Alan", city: "Wilmslow", age: 41 });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs a body whose parameters are typed where it uses them, answering as a named query", async () => {
    expect(
      await ask(server, { query: "users <- N<User>::WHERE(_::{city}::EQ(city))::{handle, age}\nRETURN users", params: { city: "London" } }),
    ).toEqual({ status: 200, body: { users: [{ handle: "ada", age: 36 }] } });
    // An id: typed ID by N<User>(..), so a value that is no id is the parameter's error, as for a named query.
    expect(await ask(server, { query: "u <- N<User>(id)::{name}\nRETURN u", params: { id: ada } })).toEqual({
      status: 200,
      body: { u: { name: "Ada" } },
    });
    expect((await ask(server, { query: "u <- N<User>(id)\nRETURN u", params: { id: "nope" } })).status).toBe(400);
  });

  it("runs a whole QUERY with its declared parameters", async () => {
    const query = "QUERY Older(min: U32) =>\n    users <- N<User>::WHERE(_::{age}::GT(min))::{handle}\n    RETURN users";
    expect(await ask(server, { query, params: { min: 40 } })).toEqual({ status: 200, body: { users: [{ handle: "alan" }] } });
  });

  it("answers a query that does not compile with 400 INVALID_QUERY and every diagnostic, at the text's own lines", async () => {
    expect(await ask(server, { query: "u <- N<User>(idd)\nRETURN u", params: { id: ada } })).toEqual({
      status: 400,
      body: {
        error: "the query does not compile: E120 at 1:14: 'idd' is not a parameter or variable of query 'query'",
        code: "INVALID_QUERY",
        diagnostics: [
          {
            code: "E120",
            severity: "error",
            message: "'idd' is not a parameter or variable of query 'query'",
            line: 1,
            column: 14,
            hint: "did you mean 'id'?",
          },
        ],
      },
    });
    expect(await ask(server, { query: "N::Extra { a: I64 }", params: {} })).toEqual({
      status: 400,
      body: {
        error: "the query does not compile: E315 at 1:1: an ad-hoc query is one QUERY, or a body (statements and a RETURN), and no schema",
        code: "INVALID_QUERY",
        diagnostics: [
          {
            code: "E315",
            severity: "error",
            message: "an ad-hoc query is one QUERY, or a body (statements and a RETURN), and no schema",
            line: 1,
            column: 1,
            hint: "declare types in the project's .hx files; send one query at a time",
          },
        ],
      },
    });
    const untyped = await ask(server, { query: "x <- things\nRETURN x", params: { things: {} } });
    expect(untyped.body).toMatchObject({ code: "INVALID_QUERY", diagnostics: [{ code: "E122", line: 1, column: 6 }] });
  });

  it("refuses a write without an api key on the server, and explains a query instead of running it", async () => {
    const write = { query: "u <- AddN<User>({handle: h, name: h, city: c, age: a})\nRETURN u", params: { h: "grace", c: "NYC", a: 85 } };
    expect(await ask(server, write)).toEqual({
      status: 403,
      body: {
        error: "this ad-hoc query writes: ad-hoc writes need a server with an api key (--api-key or STRAND_API_KEY), sent by the caller",
        code: "WRITE_FORBIDDEN",
      },
    });
    expect(await ask(server, { ...write, explain: true })).toEqual({
      status: 200,
      body: {
        params: [
          { name: "h", type: { kind: "scalar", name: "String" }, optional: false },
          { name: "c", type: { kind: "scalar", name: "String" }, optional: false },
          { name: "a", type: { kind: "scalar", name: "U32" }, optional: false },
        ],
        writes: true,
        plan: [{ in: "u", step: "addNode", access: "write", rows: 1 }],
      },
    });
    expect(
      (
        await ask(server, {
          query: "users <- N<User>::WHERE(_::{city}::EQ(c))\nposts <- users::Out<Wrote>\nRETURN posts",
          params: { c: "x" },
          explain: true,
        })
      ).body,
    ).toEqual({
      params: [{ name: "c", type: { kind: "scalar", name: "String" }, optional: false }],
      writes: false,
      // Two users, one in ten kept by the equality (at least one row); no post written yet.
      plan: [
        { in: "users", step: "N<User> WHERE", access: "index", using: ["city EQ"], rows: 1 },
        { in: "posts", step: "Out<Wrote>", access: "adjacency", rows: 0 },
      ],
    });
  });

  it("answers bad bodies with the member at fault", async () => {
    expect(await ask(server, { params: {} })).toEqual({
      status: 400,
      body: { error: "missing 'query' (the HelixQL text: a whole QUERY, or a body and a RETURN)", code: "MISSING_PARAMETER" },
    });
    expect(await ask(server, { query: "RETURN 1", parms: {} })).toEqual({
      status: 400,
      body: { error: "unknown member 'parms' (expected: query, params, explain)", code: "UNKNOWN_PARAMETER" },
    });
    expect(await ask(server, { query: 123 })).toEqual({
      status: 400,
      body: { error: "'query' must be HelixQL text (a string), got a number", code: "INVALID_PARAMETER" },
    });
    expect(await ask(server, { query: "RETURN 1", params: [] })).toEqual({
      status: 400,
      body: { error: "'params' must be a JSON object of the query's parameters", code: "INVALID_PARAMETER" },
    });
  });
});

describe("POST /query on a server with an api key", () => {
  it("runs an ad-hoc write for a caller with the key", async () => {
    const dataDir = tempDir("strand-adhoc-key-");
    const server = await startStrand({ dataDir, extraArgs: ["--api-key", "k3y"] });
    try {
      const write = {
        query: "u <- AddN<User>({handle: h, name: h, city: c, age: a})::{handle}\nRETURN u",
        params: { h: "grace", c: "NYC", a: 85 },
      };
      expect(await ask(server, write)).toMatchObject({ status: 401 });
      expect(await ask(server, write, "k3y")).toEqual({ status: 200, body: { u: { handle: "grace" } } });
      expect(await call(server, "UserByHandle", { handle: "grace" }, "k3y")).toMatchObject({ user: { name: "grace", city: "NYC" } });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the ad-hoc compiler's cache", () => {
  it("compiles a text once per kinds of parameters, and a query of another text again", async () => {
    const { adHocCompiler } = await import("../cli/project/adhoc-compiler.js");
    const { readProjectSources } = await import("../cli/project/sources.js");
    const { SOCIAL_EXAMPLE } = await import("./support/server.js");
    const compiler = adHocCompiler(readProjectSources(SOCIAL_EXAMPLE), { bm25: true });
    const text = "x <- N<User>::WHERE(_::{age}::GT(n))\nRETURN x";
    const first = await compiler.compile(text, { n: 1 });
    expect(first.ok).toBe(true);
    expect(await compiler.compile(text, { n: 2 })).toBe(first);
    expect(compiler.compiles()).toBe(1);
    await compiler.compile(`${text}\n`, { n: 2 });
    expect(compiler.compiles()).toBe(2);
  });
});

describe("POST /query's bounds", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-adhoc-bounds-");
    server = await startStrand({ dataDir, extraArgs: ["--api-key", "k3y", "--query-timeout", "1000", "--body-limit", "64KiB"] });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("stops a query past the time limit, keeping nothing it wrote, and refuses a text past the body limit", async () => {
    const handles = Array.from({ length: 5000 }, (_, i) => `u${i}`);
    const ingest = {
      query: 'FOR h IN hs {\n  AddN<User>({handle: h, name: h, city: "x", age: 7})\n}\nRETURN NONE',
      params: { hs: handles },
    };
    expect((await ask(server, ingest, "k3y")).status).toBe(200);
    // 5,000 × 5,000 checks: far past 100 ms on any machine.
    const slow = "N<User>::WHERE(EXISTS(N<User>::WHERE(_::{age}::GT(50))))::COUNT";
    expect(await ask(server, { query: slow }, "k3y")).toEqual({
      status: 503,
      body: {
        error:
          "the query ran longer than the time limit of 1000 ms and was stopped. The limit is set by query_timeout_ms under [server] in strand.toml, strand serve --query-timeout or STRAND_QUERY_TIMEOUT",
        code: "QUERY_TIMEOUT",
      },
    });
    const slowWrite = `x <- AddN<User>({handle: "late", name: "l", city: "x", age: 1})\nn <- ${slow}\nRETURN n`;
    expect((await ask(server, { query: slowWrite }, "k3y")).body).toMatchObject({ code: "QUERY_TIMEOUT" });
    expect(await ask(server, { query: 'N<User>({handle: "late"})' }, "k3y")).toEqual({ status: 200, body: { result: null } });
    const huge = { query: `N<User>::WHERE(_::{name}::EQ("${"x".repeat(70 * 1024)}"))` };
    expect(await ask(server, huge, "k3y")).toMatchObject({ status: 413, body: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("types a FOR's list of whole numbers as [I64], so its items fit an integer field; another list of numbers as [F64]", async () => {
    const body = 'FOR a IN ages {\n  u <- AddN<User>({handle: "for", name: "n", city: "Hamar", age: a})\n}\nRETURN NONE';
    expect(await ask(server, { query: body, params: { ages: [30] } }, "k3y")).toEqual({ status: 200, body: null });
    const mixed = await ask(server, { query: body, params: { ages: [30.5] } }, "k3y");
    expect(mixed).toMatchObject({
      status: 400,
      body: { code: "INVALID_QUERY", diagnostics: [{ code: "E206", message: "field 'age' is U32, but this is F64" }] },
    });
    expect(await ask(server, { query: 'N<User>::WHERE(_::{city}::EQ("Hamar"))::{age}' }, "k3y")).toEqual({
      status: 200,
      body: { result: [{ age: 30 }] },
    });
  });
});

describe("the ad-hoc compiler's cache under a flood of distinct texts", () => {
  it("keeps the newest 512: the oldest is compiled again, the newest is not", async () => {
    const { ADHOC_CACHE_ENTRIES, adHocCompiler } = await import("../cli/project/adhoc-compiler.js");
    const { readProjectSources } = await import("../cli/project/sources.js");
    const { SOCIAL_EXAMPLE } = await import("./support/server.js");
    const compiler = adHocCompiler(readProjectSources(SOCIAL_EXAMPLE), { bm25: true });
    const text = (i: number): string => `N<User>::RANGE(0, ${i})`;
    for (let i = 0; i <= ADHOC_CACHE_ENTRIES; i++) await compiler.compile(text(i), {});
    expect(compiler.compiles()).toBe(ADHOC_CACHE_ENTRIES + 1);
    await compiler.compile(text(ADHOC_CACHE_ENTRIES), {});
    expect(compiler.compiles()).toBe(ADHOC_CACHE_ENTRIES + 1);
    await compiler.compile(text(0), {});
    expect(compiler.compiles()).toBe(ADHOC_CACHE_ENTRIES + 2);
  });
});
