// strand.toml / helix.toml: defaults, every key, the HelixDB variant, and errors naming the key.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { DEFAULT_CONFIG, loadProjectConfig, type ConfigResult } from "../cli/config/project-config.js";
import { loadProjectLayout } from "../cli/config/project-layout.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function project(files: Record<string, string>): string {
  const dir = tempDir("strand-config-");
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The errors of a config that must fail, with the directory replaced by "<dir>". */
function errorsOf(dir: string, result: ConfigResult): string[] {
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.config)}`);
  return result.errors.map((e) => e.split(dir + path.sep).join("<dir>/"));
}

function strandErrors(text: string): string[] {
  const dir = project({ "strand.toml": text });
  return errorsOf(dir, loadProjectConfig(dir));
}

describe("strand.toml", () => {
  test("no configuration file: the defaults", () => {
    const dir = project({});
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: {
        file: null,
        section: null,
        queries: null,
        bm25: true,
        bm25Stemmer: "none",
        mcp: true,
        mcpIdleTimeoutSeconds: 1800,
        mcpMaxConnections: 10000,
        embeddingModel: "hash",
        vector: { m: 16, efConstruction: 128, efSearch: 64, metric: "cosine" },
      },
    });
  });

  test("an empty file: the defaults, from that file", () => {
    const dir = project({ "strand.toml": "# nothing\n" });
    expect(loadProjectConfig(dir)).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml") } });
  });

  test("every key", () => {
    const dir = project({
      "strand.toml": [
        "bm25 = false",
        'bm25_stemmer = "english"',
        "mcp = false",
        "mcp_idle_timeout_seconds = 60",
        "mcp_max_connections = 50",
        'embedding_model = "openai:text-embedding-3-small"',
        "[vector]",
        "m = 32",
        "ef_construction = 200",
        "ef_search = 100",
        'metric = "l2"',
      ].join("\n"),
    });
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: {
        file: path.join(dir, "strand.toml"),
        section: null,
        queries: null,
        bm25: false,
        bm25Stemmer: "english",
        mcp: false,
        mcpIdleTimeoutSeconds: 60,
        mcpMaxConnections: 50,
        embeddingModel: "openai:text-embedding-3-small",
        vector: { m: 32, efConstruction: 200, efSearch: 100, metric: "l2" },
      },
    });
  });

  test.each([
    ['embedding_model = "gemini:text-embedding-004"', { embeddingModel: "gemini:text-embedding-004" }],
    ['embedding_model = "local"', { embeddingModel: "local" }],
    ['vector = { metric = "ip" }', { vector: { ...DEFAULT_CONFIG.vector, metric: "ip" } }],
  ])("%s", (line, expected) => {
    const dir = project({ "strand.toml": line });
    expect(loadProjectConfig(dir)).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), ...expected } });
  });

  test("unknown keys name the key and list the known ones", () => {
    expect(strandErrors("bm25 = true\nbm_25 = true\n[vector]\nmetrics = 'l2'\n[server]\nport = 1")).toEqual([
      "<dir>/strand.toml: vector.metrics: unknown key (known: m, ef_construction, ef_search, metric)",
      "<dir>/strand.toml: bm_25: unknown key (known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [vector])",
      "<dir>/strand.toml: server: unknown key (known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [vector])",
    ]);
  });

  test("values of the wrong type or out of range", () => {
    expect(
      strandErrors(
        [
          'bm25 = "yes"',
          "mcp = 1",
          'bm25_stemmer = "porter"',
          "[vector]",
          "m = 16.0",
          "ef_construction = 0",
          "ef_search = -5",
          "metric = 3",
        ].join("\n"),
      ),
    ).toEqual([
      '<dir>/strand.toml: bm25: expected true or false, got "yes"',
      '<dir>/strand.toml: bm25_stemmer: expected one of "none", "english", got "porter"',
      "<dir>/strand.toml: mcp: expected true or false, got 1",
      "<dir>/strand.toml: vector.m: expected an integer from 2 to 1000000, got 16.0 (a float)",
      "<dir>/strand.toml: vector.ef_construction: expected an integer from 1 to 1000000, got 0",
      "<dir>/strand.toml: vector.ef_search: expected an integer from 1 to 1000000, got -5",
      '<dir>/strand.toml: vector.metric: expected one of "cosine", "l2", "ip", got 3',
    ]);
    expect(strandErrors("vector = 3")).toEqual(["<dir>/strand.toml: vector: expected a table, got 3"]);
    expect(strandErrors("[vector]\nm = 1")).toEqual(["<dir>/strand.toml: vector.m: expected an integer from 2 to 1000000, got 1"]);
    // Floats are named as such, whatever their value (audit D8).
    expect(strandErrors("[vector]\nm = 1.5\nef_search = 1e3\nef_construction = inf\n\n[extra]\n")).toEqual([
      "<dir>/strand.toml: vector.m: expected an integer from 2 to 1000000, got 1.5 (a float)",
      "<dir>/strand.toml: vector.ef_construction: expected an integer from 1 to 1000000, got inf (a float)",
      "<dir>/strand.toml: vector.ef_search: expected an integer from 1 to 1000000, got 1000.0 (a float)",
      "<dir>/strand.toml: extra: unknown key (known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [vector])",
    ]);
    expect(strandErrors("mcp = 2.0")).toEqual(["<dir>/strand.toml: mcp: expected true or false, got 2.0 (a float)"]);
  });

  test("the /mcp connection settings: integers in range, named when not (audit D5)", () => {
    expect(strandErrors(["mcp_idle_timeout_seconds = 0", "mcp_max_connections = 1_000_001"].join("\n"))).toEqual([
      "<dir>/strand.toml: mcp_idle_timeout_seconds: expected an integer from 1 to 31536000, got 0",
      "<dir>/strand.toml: mcp_max_connections: expected an integer from 1 to 1000000, got 1000001",
    ]);
    expect(strandErrors('mcp_idle_timeout_seconds = "30m"\nmcp_max_connections = 2.5')).toEqual([
      '<dir>/strand.toml: mcp_idle_timeout_seconds: expected an integer from 1 to 31536000, got "30m"',
      "<dir>/strand.toml: mcp_max_connections: expected an integer from 1 to 1000000, got 2.5 (a float)",
    ]);
    expect(strandErrors("mcp_idle_timeout = 60")).toEqual([
      "<dir>/strand.toml: mcp_idle_timeout: unknown key (known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [vector])",
    ]);
    const dir = project({ "strand.toml": "mcp_idle_timeout_seconds = 31536000\nmcp_max_connections = 1\n" });
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), mcpIdleTimeoutSeconds: 31536000, mcpMaxConnections: 1 },
    });
  });

  test("a bad metric", () => {
    expect(strandErrors('[vector]\nmetric = "dot"')).toEqual([
      '<dir>/strand.toml: vector.metric: expected one of "cosine", "l2", "ip", got "dot"',
    ]);
  });

  test("an unknown embedding model string", () => {
    const expected = (m: string) =>
      `<dir>/strand.toml: embedding_model: unknown embedding model "${m}": expected "hash", "local", "openai:<model>" or "gemini:<model>"`;
    for (const m of ["cohere:embed-v3", "openai:", "openai", "OPENAI:x", "gemini: x", ""]) {
      expect(strandErrors(`embedding_model = ${JSON.stringify(m)}`)).toEqual([expected(m)]);
    }
    expect(strandErrors("embedding_model = true")).toEqual(["<dir>/strand.toml: embedding_model: expected a string, got true"]);
  });

  test("invalid TOML gives the position", () => {
    expect(strandErrors("bm25 = \n")).toEqual(["<dir>/strand.toml:1:8: invalid TOML: Invalid TOML document: invalid value"]);
  });

  test("strand.toml wins over helix.toml", () => {
    const dir = project({ "strand.toml": "mcp = false", "helix.toml": "[local.dev]\nmcp = true\nbm25 = false" });
    expect(loadProjectConfig(dir)).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), mcp: false } });
  });
});

describe("helix.toml", () => {
  const HELIX = `
[project]
name = "my-app"
queries = "./db/"

[local.dev]
port = 6969
build_mode = "debug"
vector_config = { m = 32, ef_construction = 200, ef_search = 768 }
graph_config = { secondary_indices = ["email"] }
db_max_size_gb = 20
mcp = false
bm25 = false
embedding_model = "openai:text-embedding-3-small"
graphvis_node_label = "name"

[cloud]
`;

  test("the [local.<instance>] section, with vector_config; other HelixDB settings are ignored", () => {
    const dir = project({ "helix.toml": HELIX });
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: {
        file: path.join(dir, "helix.toml"),
        section: "local.dev",
        queries: "./db/",
        bm25: false,
        bm25Stemmer: "none",
        mcp: false,
        mcpIdleTimeoutSeconds: 1800,
        mcpMaxConnections: 10000,
        embeddingModel: "openai:text-embedding-3-small",
        vector: { m: 32, efConstruction: 200, efSearch: 768, metric: "cosine" },
      },
    });
  });

  test("the /mcp connection settings are read from the instance too", () => {
    const dir = project({ "helix.toml": "[local.dev]\nmcp_idle_timeout_seconds = 90\nmcp_max_connections = 7\n" });
    expect(loadProjectConfig(dir)).toMatchObject({ ok: true, config: { mcpIdleTimeoutSeconds: 90, mcpMaxConnections: 7 } });
    const bad = project({ "helix.toml": "[local.dev]\nmcp_max_connections = 0\n" });
    expect(errorsOf(bad, loadProjectConfig(bad))).toEqual([
      "<dir>/helix.toml: local.dev.mcp_max_connections: expected an integer from 1 to 1000000, got 0",
    ]);
  });

  test("a single instance of any name; several: the one named dev", () => {
    let dir = project({ "helix.toml": "[local.staging]\nport = 9090\nbm25 = false" });
    expect(loadProjectConfig(dir)).toMatchObject({ ok: true, config: { bm25: false, section: "local.staging" } });
    dir = project({ "helix.toml": "[local.staging]\nbm25 = false\n[local.dev]\nmcp = false" });
    expect(loadProjectConfig(dir)).toMatchObject({ ok: true, config: { bm25: true, mcp: false, section: "local.dev" } });
    dir = project({ "helix.toml": "[local.a]\n[local.b]" });
    expect(errorsOf(dir, loadProjectConfig(dir))).toEqual([
      "<dir>/helix.toml: local: expected one [local.<instance>] section or [local.dev], found a, b",
    ]);
  });

  test("no [local.*] section: every setting takes its default (audit 6 L5)", () => {
    let dir = project({ "helix.toml": '[project]\nname = "x"\nqueries = "./db/"\n' });
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file: path.join(dir, "helix.toml"), section: null, queries: "./db/" },
    });
    dir = project({ "helix.toml": "" });
    expect(loadProjectConfig(dir)).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, file: path.join(dir, "helix.toml") } });
    dir = project({ "helix.toml": "[local]\n" });
    expect(loadProjectConfig(dir)).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, file: path.join(dir, "helix.toml") } });
  });

  test("keys that are not HelixDB's, and bad values, name the key", () => {
    const dir = project({
      "helix.toml":
        '[local.dev]\nport = 6969\nvector_config = { m = "16", ef = 5 }\nbm25 = "on"\nembedding_model = "voyage:x"\nturbo = true\n[extras]\n',
    });
    expect(errorsOf(dir, loadProjectConfig(dir))).toEqual([
      "<dir>/helix.toml: extras: unknown key (Strand reads [local.<instance>]; also accepted: project, cloud, enterprise)",
      '<dir>/helix.toml: local.dev.bm25: expected true or false, got "on"',
      '<dir>/helix.toml: local.dev.embedding_model: unknown embedding model "voyage:x": expected "hash", "local", "openai:<model>" or "gemini:<model>"',
      '<dir>/helix.toml: local.dev.vector_config.m: expected an integer from 2 to 1000000, got "16"',
      "<dir>/helix.toml: local.dev.vector_config.ef: unknown key (known: m, ef_construction, ef_search)",
      "<dir>/helix.toml: local.dev.turbo: unknown key (known: vector_config, bm25, mcp, mcp_idle_timeout_seconds, mcp_max_connections, embedding_model; ignored: port, build_mode, image, tag, storage, graph_config, db_max_size_gb, graphvis_node_label)",
    ]);
  });
});

describe("helix.toml [project] and the HelixDB v2 layout (audit D9)", () => {
  /** A project tree: paths ending in "/" are folders. */
  function tree(files: Record<string, string>): string {
    const dir = tempDir("strand-layout-");
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
      const target = path.join(dir, name);
      fs.mkdirSync(name.endsWith("/") ? target : path.dirname(target), { recursive: true });
      if (!name.endsWith("/")) fs.writeFileSync(target, text);
    }
    return dir;
  }
  const HX = { "db/schema.hx": "N::User { name: String }\n" };

  test("[project] takes HelixDB's keys: queries is read, name, id, workspace_id and container_runtime are ignored", () => {
    const dir = project({
      "helix.toml":
        '[project]\nname = "app"\nqueries = "./hx/"\nid = "p1"\nworkspace_id = "w1"\ncontainer_runtime = "podman"\n[local.dev]\nport = 6969\n',
    });
    expect(loadProjectConfig(dir)).toMatchObject({ ok: true, config: { queries: "./hx/", section: "local.dev" } });
  });

  test("an unknown [project] key or a bad value names the key", () => {
    const dir = project({ "helix.toml": '[project]\nname = 1\nqueries = ""\ncontainer_runtime = "lxc"\nquery = "./db/"\n[local.dev]\n' });
    expect(errorsOf(dir, loadProjectConfig(dir))).toEqual([
      "<dir>/helix.toml: project.queries: expected a non-empty path",
      "<dir>/helix.toml: project.name: expected a string, got 1",
      '<dir>/helix.toml: project.container_runtime: expected one of "docker", "podman", got "lxc"',
      "<dir>/helix.toml: project.query: unknown key (known: queries; ignored: name, id, workspace_id, container_runtime)",
    ]);
  });

  test("the root of a HelixDB v2 project: the .hx files of its queries folder, with its settings", () => {
    const root = tree({ "helix.toml": '[project]\nname = "app"\nqueries = "./db/"\n[local.dev]\nbm25 = false\n', ...HX });
    expect(loadProjectLayout(root)).toMatchObject({
      ok: true,
      config: { bm25: false, file: path.join(root, "helix.toml") },
      sources: path.join(root, "db"),
    });
    const other = tree({ "helix.toml": '[project]\nname = "app"\nqueries = "src/queries"\n[local.dev]\n', "src/queries/a.hx": "" });
    expect(loadProjectLayout(other)).toMatchObject({ ok: true, sources: path.join(other, "src", "queries") });
  });

  test("without queries: the root's own .hx files if it has any, else ./db/ (HelixDB's default)", () => {
    const flat = tree({ "helix.toml": "[local.dev]\n", "a.hx": "", "db/": "" });
    expect(loadProjectLayout(flat)).toMatchObject({ ok: true, sources: flat });
    const nested = tree({ "helix.toml": '[project]\nname = "app"\n[local.dev]\n', ...HX });
    expect(loadProjectLayout(nested)).toMatchObject({ ok: true, sources: path.join(nested, "db") });
  });

  test("a helix.toml with only [project] still names the queries folder (audit 6 L5)", () => {
    const root = tree({ "helix.toml": '[project]\nname = "x"\nqueries = "./db/"\n', ...HX });
    const file = path.join(root, "helix.toml");
    expect(loadProjectLayout(root)).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file, queries: "./db/" },
      sources: path.join(root, "db"),
    });
    expect(loadProjectLayout(path.join(root, "db"))).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file, queries: "./db/" },
      sources: path.join(root, "db"),
    });
    const bare = tree({ "helix.toml": '[project]\nname = "x"\n', ...HX });
    expect(loadProjectLayout(bare)).toMatchObject({ ok: true, sources: path.join(bare, "db") });
  });

  test("the queries folder itself finds the helix.toml that names it, one level up", () => {
    const root = tree({ "helix.toml": '[project]\nname = "app"\nqueries = "./db/"\n[local.dev]\nbm25 = false\n', ...HX });
    const db = path.join(root, "db");
    expect(loadProjectLayout(db)).toMatchObject({ ok: true, config: { bm25: false, file: path.join(root, "helix.toml") }, sources: db });
    const byDefault = tree({ "helix.toml": '[project]\nname = "app"\n[local.dev]\nmcp = false\n', ...HX });
    expect(loadProjectLayout(path.join(byDefault, "db"))).toMatchObject({
      ok: true,
      config: { mcp: false },
      sources: path.join(byDefault, "db"),
    });
    // A helix.toml that names another folder (or a strand.toml beside it) is not this project's.
    const elsewhere = tree({ "helix.toml": '[project]\nname = "app"\nqueries = "./hx/"\n[local.dev]\nbm25 = false\n', ...HX });
    expect(loadProjectLayout(path.join(elsewhere, "db"))).toEqual({
      ok: true,
      config: DEFAULT_CONFIG,
      sources: path.join(elsewhere, "db"),
    });
    // Its errors are this project's errors.
    const broken = tree({ "helix.toml": '[project]\nname = "app"\n[local.dev]\nbm25 = "no"\n', ...HX });
    const r = loadProjectLayout(path.join(broken, "db"));
    expect(r.ok ? r : r.errors.map((e) => e.split(broken + path.sep).join("<dir>/"))).toEqual([
      '<dir>/helix.toml: local.dev.bm25: expected true or false, got "no"',
    ]);
  });
});
