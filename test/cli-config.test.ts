// strand.toml / helix.toml through the built CLI: check passes `bm25` to the compiler, serve
// stops on a bad setting or an embedding model it cannot serve, and serves SearchBM25 otherwise.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, CLI, REPO_ROOT, startStrand, tempDir } from "./support/server.js";

const work = tempDir("strand-cli-config-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SCHEMA = "N::Doc { title: String, body: String }\n";
const QUERIES = `
QUERY AddDoc(title: String, body: String) =>
    doc <- AddN<Doc>({title: title, body: body})
    RETURN doc

QUERY Find(q: String, k: I64) =>
    docs <- SearchBM25<Doc>(q, k)
    RETURN docs
`;

/** A project folder `name` under the work dir with the .hx files and the given config files. */
function project(name: string, config: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "schema.hx"), SCHEMA);
  writeFileSync(join(dir, "queries.hx"), QUERIES);
  for (const [file, text] of Object.entries(config)) writeFileSync(join(dir, file), text);
  return dir;
}

/** Runs the CLI in the work dir without any provider key in the environment. */
function strand(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  for (const k of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY"]) delete env[k];
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: work,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("project configuration in the CLI", () => {
  it("check: bm25 = false makes SearchBM25 an error whose hint names where it is set (strand.toml and helix.toml)", () => {
    project("on", {});
    expect(strand(["check", "on"])).toEqual({ status: 0, stdout: "ok: 2 queries, 1 types\n", stderr: "" });
    for (const [name, config, where] of [
      ["off", { "strand.toml": "bm25 = false\n" }, "strand.toml"],
      ["helix-off", { "helix.toml": '[project]\nname = "x"\n\n[local.dev]\nport = 6969\nbm25 = false\n' }, "helix.toml [local.dev]"],
      ["helix-prod-off", { "helix.toml": "[local.prod]\nbm25 = false\n" }, "helix.toml [local.prod]"],
    ] as const) {
      project(name, config);
      const r = strand(["check", name]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`${name}/queries.hx:7:13: error E310: SearchBM25 needs the keyword index, which this project disables`);
      expect(r.stderr).toContain(`  hint: set \`bm25 = true\` in ${where} (or remove the line: it is on by default)\n`);
    }
  });

  it("check: a #[model(..)] that names no embedding model is E308 at the string, as startup would refuse it", () => {
    const dir = project("bogus-model", {});
    writeFileSync(
      join(dir, "ask.hx"),
      'V::Chunk { text: String }\n#[model("bogus-model")]\nQUERY Ask(q: String) =>\n    hits <- SearchV<Chunk>(Embed(q), 3)\n    RETURN hits\n',
    );
    expect(strand(["check", "bogus-model"])).toEqual({
      status: 1,
      stdout: "",
      stderr: [
        'bogus-model/ask.hx:2:9: error E308: embedding model "bogus-model" names no provider: write it with one, e.g. "openai:bogus-model"; expected "hash", "local", "openai:<model>", "gemini:<model>[:<TASK_TYPE>]" or "azure_openai:<deployment>"',
        '2 | #[model("bogus-model")]',
        "  |         ^^^^^^^^^^^^^",
        '  hint: e.g. #[model("openai:text-embedding-3-small")]',
        "1 error",
        "",
      ].join("\n"),
    });
  });

  it("check, compile and serve stop on a bad setting, naming file and key", () => {
    project("bad", { "strand.toml": '[vector]\nmetric = "dot"\nm = 1\n' });
    const expected =
      "strand: bad/strand.toml: vector.m: expected an integer from 2 to 1000000, got 1\n" +
      'strand: bad/strand.toml: vector.metric: expected one of "cosine", "l2", "ip", got "dot"\n';
    expect(strand(["check", "bad"])).toEqual({ status: 1, stdout: "", stderr: expected });
    expect(strand(["compile", "bad", "--out", join(work, "bad-out")])).toEqual({ status: 1, stdout: "", stderr: expected });
    expect(strand(["serve", "bad", "--port", "0", "--data", join(work, "bad-data")])).toEqual({ status: 1, stdout: "", stderr: expected });
  });

  it("serve stops when the embedding model cannot be served", () => {
    project("nokey", { "strand.toml": 'embedding_model = "openai:text-embedding-3-small"\n' });
    expect(strand(["serve", "nokey", "--port", "0", "--data", join(work, "nokey-data")])).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "strand: embedding model openai:text-embedding-3-small needs OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server)\n",
    });
  });

  it("serve and mcp --stdio stop when a query's #[model(..)] cannot be served", () => {
    const dir = project("model", {});
    writeFileSync(
      join(dir, "ask.hx"),
      'V::Chunk { text: String }\n#[model("gemini:text-embedding-004")]\nQUERY Ask(q: String) =>\n    hits <- SearchV<Chunk>(Embed(q), 3)\n    RETURN hits\n',
    );
    const expected = 'strand: #[model("gemini:text-embedding-004")]: embedding model gemini:text-embedding-004 needs GEMINI_API_KEY\n';
    const serve = strand(["serve", "model", "--port", "0", "--data", join(work, "model-data")]);
    expect({
      status: serve.status,
      stderr: `${serve.stderr
        .split("\n")
        .filter((l) => l.startsWith("strand:"))
        .join("\n")}\n`,
    }).toEqual({ status: 1, stderr: expected });
    const mcp = strand(["mcp", "--stdio", "model", "--data", join(work, "model-data2")]);
    expect(mcp.status).toBe(1);
    expect(mcp.stderr).toContain(expected);
  });

  it("serve: [server] body_limit sets the body limit, --body-limit overrides it, and the 413 names both", async () => {
    const dir = project("body-limit", { "strand.toml": '[server]\nbody_limit = "1KiB"\n' });
    const doc = { title: "t", body: "x".repeat(2000) };
    const tooLarge = {
      status: 413,
      body: {
        error:
          "request body exceeds the limit of 1024 bytes; the limit is set by body_limit under [server] in strand.toml or strand serve --body-limit",
        code: "PAYLOAD_TOO_LARGE",
      },
    };
    const fromToml = await startStrand({ project: dir });
    try {
      expect(await call(fromToml, "AddDoc", doc)).toEqual(tooLarge);
      expect((await call(fromToml, "AddDoc", { title: "t", body: "short" })).status).toBe(200);
    } finally {
      await fromToml.stop();
    }
    const fromFlag = await startStrand({ project: dir, extraArgs: ["--body-limit", "4KiB"] });
    try {
      expect((await call(fromFlag, "AddDoc", doc)).status).toBe(200);
    } finally {
      await fromFlag.stop();
    }
  });

  it("serve: a body memory limit below the body limit stops startup, naming both; from strand.toml or the flag", () => {
    const dir = project("body-memory", { "strand.toml": '[server]\nbody_limit = "4KiB"\nbody_memory_limit = "2KiB"\n' });
    const below = (memory: number, body: number): string =>
      `strand: the body memory limit (${memory} bytes: --body-memory-limit, STRAND_BODY_MEMORY_LIMIT or [server] body_memory_limit) is below the body limit (${body} bytes): one body the server takes must fit in it\n`;
    const fromToml = strand(["serve", dir, "--port", "0", "--data", join(work, "body-memory-data")]);
    expect({ status: fromToml.status, stderr: fromToml.stderr }).toEqual({ status: 1, stderr: below(2048, 4096) });
    const fromFlag = strand([
      "serve",
      dir,
      "--port",
      "0",
      "--data",
      join(work, "body-memory-data"),
      "--body-limit",
      "3KiB",
      "--body-memory-limit",
      "3000",
    ]);
    expect({ status: fromFlag.status, stderr: fromFlag.stderr }).toEqual({ status: 1, stderr: below(3000, 3072) });
  });

  it("serve: [server] query_timeout_ms stops a long query with 503 QUERY_TIMEOUT and keeps none of its writes; --query-timeout 0 lifts it", async () => {
    const dir = project("query-timeout", { "strand.toml": "[server]\nquery_timeout_ms = 1\n" });
    writeFileSync(
      join(dir, "more.hx"),
      'QUERY AddMany(docs: [{title: String, body: String}]) =>\n    FOR {title, body} IN docs {\n        AddN<Doc>({title: title, body: body})\n    }\n    RETURN "ok"\n\nQUERY CountDocs() =>\n    n <- N<Doc>::COUNT\n    RETURN n\n',
    );
    // 5,000 nodes, each indexed for BM25, take far longer than 1 ms to write.
    const docs = Array.from({ length: 5000 }, (_, i) => ({ title: `t${i}`, body: "some words" }));
    const data = tempDir("strand-query-timeout-");
    const limited = await startStrand({ project: dir, dataDir: data });
    try {
      expect(await call(limited, "AddMany", { docs })).toEqual({
        status: 503,
        body: {
          error:
            "the query ran longer than the time limit of 1 ms and was stopped; nothing it wrote was kept. The limit is set by query_timeout_ms under [server] in strand.toml, strand serve --query-timeout or STRAND_QUERY_TIMEOUT",
          code: "QUERY_TIMEOUT",
        },
      });
      expect(await call(limited, "CountDocs", {})).toEqual({ status: 200, body: { n: 0 } });
    } finally {
      await limited.stop();
    }
    const unlimited = await startStrand({ project: dir, dataDir: data, extraArgs: ["--query-timeout", "0"] });
    try {
      expect(await call(unlimited, "AddMany", { docs })).toEqual({ status: 200, body: { data: "ok" } });
      expect(await call(unlimited, "CountDocs", {})).toEqual({ status: 200, body: { n: 5000 } });
    } finally {
      await unlimited.stop();
      rmSync(data, { recursive: true, force: true });
    }
  });

  it("serve: mcp_idle_timeout_seconds, mcp_max_connections and bm25 = false reach the agent tools (audit D3, D5)", async () => {
    const dir = project("mcp-settings", { "strand.toml": "bm25 = false\nmcp_idle_timeout_seconds = 5\nmcp_max_connections = 2\n" });
    writeFileSync(
      join(dir, "queries.hx"),
      "QUERY AddDoc(title: String, body: String) =>\n    doc <- AddN<Doc>({title: title, body: body})\n    RETURN doc\n",
    );
    const server = await startStrand({ project: dir });
    try {
      const a = await call(server, "mcp/init");
      expect((await call(server, "mcp/init")).status).toBe(200);
      // The cap and the timeout come from strand.toml (the defaults are 10,000 and 1,800,000 ms).
      expect(await call(server, "mcp/init")).toEqual({
        status: 429,
        body: { error: "too many open connections (limit 2); idle ones expire after 5000 ms", code: "TOO_MANY_CONNECTIONS" },
      });
      expect(await call(server, "mcp/search_keyword", { connection_id: a.body, data: { query: "x", label: "Doc", limit: 1 } })).toEqual({
        status: 400,
        body: {
          error:
            "search_keyword needs the BM25 keyword index, which this project disables (bm25 = false): set bm25 = true in strand.toml (or helix.toml) and restart to build it",
          code: "BM25_DISABLED",
        },
      });
    } finally {
      await server.stop();
    }
  });

  it("a query named mcp is E313 in check, compile and serve (no stack), unless mcp = false (audit D9)", async () => {
    const dir = project("route-names", {});
    const queries = ["mcp", "health", "introspect"].map((name) => `QUERY ${name}() =>\n    n <- N<Doc>::COUNT\n    RETURN n\n`).join("\n");
    writeFileSync(join(dir, "queries.hx"), queries);
    const diagnostic = [
      "route-names/queries.hx:1:7: error E313: a query named 'mcp' collides with the MCP endpoint POST /mcp",
      "1 | QUERY mcp() =>",
      "  |       ^^^",
      "  hint: rename the query, or set `mcp = false` in strand.toml to turn the agent tools off",
    ].join("\n");
    expect(strand(["check", "route-names"])).toEqual({ status: 1, stdout: "", stderr: `${diagnostic}\n1 error\n` });
    expect(strand(["compile", "route-names", "--out", join(work, "route-names-out")])).toEqual({
      status: 1,
      stdout: "",
      stderr: `${diagnostic}\n1 error; nothing written\n`,
    });
    const serve = strand(["serve", "route-names", "--port", "0", "--data", join(work, "route-names-data")]);
    expect(serve).toEqual({ status: 1, stdout: "", stderr: `${diagnostic}\nthe project has 1 error; not serving\n` });
    const mcp = strand(["mcp", "--stdio", "route-names", "--data", join(work, "route-names-data")]);
    expect(mcp.status).toBe(1);
    expect(mcp.stderr).toContain("error E313");

    // With the agent tools off, /mcp is a query like any other; health and introspect are POST queries beside the GET routes.
    writeFileSync(join(dir, "strand.toml"), "mcp = false\n");
    expect(strand(["check", "route-names"])).toEqual({ status: 0, stdout: "ok: 3 queries, 1 types\n", stderr: "" });
    const server = await startStrand({ project: dir });
    try {
      for (const name of ["mcp", "health", "introspect"]) expect(await call(server, name)).toEqual({ status: 200, body: { n: 0 } });
      expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: "ok" });
      expect((await fetch(`${server.url}/introspect`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("a HelixDB v2 project (helix.toml at the root, .hx files in its [project] queries folder): check, compile and serve the root or db/ (audit D9)", async () => {
    const fixture = join(REPO_ROOT, "test/fixtures/helix-v2");
    for (const dir of [fixture, join(fixture, "db")]) {
      expect(strand(["check", dir])).toEqual({ status: 0, stdout: "ok: 2 queries, 1 types\n", stderr: "" });
    }
    const out = join(work, "helix-v2-out");
    expect(strand(["compile", fixture, "--out", out])).toEqual({
      status: 0,
      stdout: `compiled 2 queries into helix-v2-out (6 written, 0 unchanged, 0 removed)\n`,
      stderr: "",
    });
    expect(readdirSync(join(out, "queries")).sort()).toEqual(["AddUser.ts", "FindUsers.ts"]);

    // The root's [local.dev] settings apply to either folder: bm25 = false makes SearchBM25 E310.
    cpSync(fixture, join(work, "helix-v2"), { recursive: true });
    writeFileSync(
      join(work, "helix-v2/helix.toml"),
      readFileSync(join(fixture, "helix.toml"), "utf8").replace("bm25 = true", "bm25 = false"),
    );
    for (const dir of ["helix-v2", "helix-v2/db"]) {
      const r = strand(["check", dir]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        "helix-v2/db/queries.hx:6:14: error E310: SearchBM25 needs the keyword index, which this project disables",
      );
    }

    for (const project of [fixture, join(fixture, "db")]) {
      const server = await startStrand({ project });
      try {
        expect(await call(server, "AddUser", { handle: "ada", bio: "graph databases" })).toMatchObject({ status: 200 });
        expect(await call(server, "FindUsers", { q: "graph" })).toEqual({ status: 200, body: { users: [{ handle: "ada" }] } });
        // mcp = false in [local.dev]: the agent endpoints are not served.
        expect((await fetch(`${server.url}/mcp`, { method: "POST" })).status).toBe(404);
      } finally {
        await server.stop();
      }
    }
  });

  it("check: helix.toml keys Strand does not know are one warning line, not an error; config.hx.json likewise (issue 11)", () => {
    project("helix-extra", {
      "helix.toml": '[project]\nname = "x"\nversion = "1.0.0"\n[local.dev]\nvector_config = { m = 16, db_max_size_gb = 20 }\n',
    });
    expect(strand(["check", "helix-extra"])).toEqual({
      status: 0,
      stdout: "ok: 2 queries, 1 types\n",
      stderr:
        "strand: warning: helix-extra/helix.toml: ignoring keys Strand does not use: local.dev.vector_config.db_max_size_gb, project.version\n",
    });
    project("v1", { "config.hx.json": JSON.stringify({ vector_config: { m: 16 }, db_max_size_gb: 10, bm25: true, mcp: true }) });
    expect(strand(["check", "v1"])).toEqual({
      status: 0,
      stdout: "ok: 2 queries, 1 types\n",
      stderr:
        "strand: warning: v1/config.hx.json: db_max_size_gb is not honoured: Strand's store has no size cap; it grows as data is added\n",
    });
  });

  it("serve: SearchBM25 over HTTP with the configured stemmer", async () => {
    const dir = project("served", { "strand.toml": 'bm25_stemmer = "english"\nmcp = false\n' });
    const server = await startStrand({ project: dir });
    try {
      const added = await call(server, "AddDoc", { title: "Running graphs", body: "connected nodes" });
      expect(added.status).toBe(200);
      await call(server, "AddDoc", { title: "Cooking", body: "slow beans" });
      const found = await call(server, "Find", { q: "run connection", k: 5 });
      expect(found.status).toBe(200);
      // Stemmed, the documents are "run graph connect node" and "cook slow bean": N 2, avglen 3.5;
      // both query terms have df 1, idf ln(1 + 1.5/1.5) = ln 2, and tf 1 in a document of 4 terms.
      const each = (Math.LN2 * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 4) / 3.5));
      const docs = (found.body as { docs: { title: string; score: number }[] }).docs;
      expect(docs.map((d) => d.title)).toEqual(["Running graphs"]);
      expect(Math.abs(docs[0]!.score - 2 * each)).toBeLessThan(1e-9);
      // mcp = false: the agent endpoints are not served.
      expect((await fetch(`${server.url}/mcp`, { method: "POST" })).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
