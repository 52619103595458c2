// strand.toml / helix.toml: defaults, every key, the HelixDB variant, and errors naming the key.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { DEFAULT_CONFIG, loadProjectConfig, type ConfigResult } from "../cli/config/load-config.js";
import { loadProjectLayout } from "../cli/config/project-layout.js";
import { MODEL_FORMS as FORMS } from "../core/model-name.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { noneGiven } from "../cli/config/given.js";
import { resolveSettings } from "../cli/config/settings.js";
import type { GivenSettings } from "../cli/config/knobs.js";

/** What strand.toml gives: these sections' values, none in the others. */
const given = (sections: Partial<GivenSettings>): GivenSettings => ({ ...noneGiven(), ...sections });

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

  test("[replication]: the commit log retention and the Strand-After wait, checked like every key", () => {
    const dir = project({
      "strand.toml":
        "[replication]\nlog_retention_entries = 500\nlog_retention_bytes = 1048576\nlog_on_demand = false\nread_after_timeout_ms = 2000\n",
    });
    const result = loadProjectConfig(dir);
    expect(result.ok && result.config.given).toMatchObject({
      store: { logRetentionEntries: 500, logRetentionBytes: 1048576, logOnDemand: false },
      replication: { afterTimeoutMs: 2000 },
    });
    expect(strandErrors("[replication]\nlog_retention_entries = 0\nlog_retention_bytes = 10\nlog_on_demand = 1\nkeep = 1\n")).toEqual([
      "<dir>/strand.toml: replication.log_retention_entries: expected an integer from 1 to 9007199254740991, got 0",
      "<dir>/strand.toml: replication.log_retention_bytes: expected an integer from 4096 to 9007199254740991, got 10",
      "<dir>/strand.toml: replication.log_on_demand: expected true or false, got 1",
      "<dir>/strand.toml: replication.keep: unknown key (known: log_retention_entries, log_retention_bytes, log_on_demand, read_after_timeout_ms)",
    ]);
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
    ['[server]\nbody_memory_limit = "1GiB"', { given: given({ frontDoor: { bodyMemoryLimitBytes: 2 ** 30 } }) }],
    ['[server]\nanswer_memory_limit = "2GiB"', { given: given({ frontDoor: { answerMemoryLimitBytes: 2 ** 31 } }) }],
    ["[server]\nvector_data_in_answers = false", { given: given({ server: { vectorDataInAnswers: false } }) }],
    ['[server]\nanswer_limit = "64MiB"', { given: given({ server: { answerLimitBytes: 64 * 1024 * 1024 } }) }],
    ["[server]\nanswer_limit = 0", { given: given({ server: { answerLimitBytes: 0 } }) }],
    ["[server]\nvector_data_in_answers = true", { given: given({ server: { vectorDataInAnswers: true } }) }],
  ])("%s", (line, expected) => {
    const dir = project({ "strand.toml": line });
    expect(loadProjectConfig(dir)).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), ...expected } });
  });

  test("[server] vector_data_in_answers: the server setting vectorDataInAnswers, true unless set to false", () => {
    const settingOf = (files: Record<string, string>): unknown => {
      const loaded = loadProjectConfig(project(files));
      if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
      const settings = resolveSettings(noneGiven(), loaded.config, true);
      return "error" in settings ? settings : settings.server.vectorDataInAnswers;
    };
    expect(settingOf({})).toBe(true);
    expect(settingOf({ "strand.toml": "[server]\nvector_data_in_answers = false\n" })).toBe(false);
  });

  test("[server] vector_data_in_answers: true or false", () => {
    expect(strandErrors('[server]\nvector_data_in_answers = "no"')).toEqual([
      '<dir>/strand.toml: server.vector_data_in_answers: expected true or false, got "no"',
    ]);
  });

  test("unknown keys name the key and list the known ones", () => {
    expect(strandErrors("bm25 = true\nbm_25 = true\n[vector]\nmetrics = 'l2'\n[server]\nport = 1")).toEqual([
      "<dir>/strand.toml: vector.metrics: unknown key (known: m, ef_construction, ef_search, metric)",
      "<dir>/strand.toml: server.port: unknown key (known: body_limit, answer_limit, idempotency_window_s, vector_data_in_answers, memory, tenants, tenant_idle_s, tenant_memory_release, tenant_max_records, tenant_max_bytes, tenant_max_rps, body_memory_limit, answer_memory_limit, stall_limit_ms, max_connections_per_client, query_timeout_ms)",
      "<dir>/strand.toml: bm_25: unknown key (known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [server], [vector], [replication], [cluster])",
    ]);
  });

  test("[server] body_limit: bytes, or a size with a unit; at least 2 bytes", () => {
    for (const [value, bytes] of [
      ['"8MiB"', 8 * 1024 * 1024],
      ['"512 KiB"', 512 * 1024],
      ['"2MB"', 2_000_000],
      ['"100B"', 100],
      ["1048576", 1048576],
      ["2", 2],
    ] as const) {
      const dir = project({ "strand.toml": `[server]\nbody_limit = ${value}\n` });
      expect(loadProjectConfig(dir)).toEqual({
        ok: true,
        config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), given: given({ server: { bodyLimitBytes: bytes } }) },
      });
    }
    const form = 'bytes, or a size such as "8MiB" (B, KiB, MiB, GiB, kB, MB, GB), from 2 to 9007199254740991 bytes';
    expect(strandErrors('[server]\nbody_limit = "8 parsecs"')).toEqual([
      `<dir>/strand.toml: server.body_limit: expected ${form}, got "8 parsecs"`,
    ]);
    expect(strandErrors("[server]\nbody_limit = 1")).toEqual([`<dir>/strand.toml: server.body_limit: expected ${form}, got 1`]);
    expect(strandErrors("[server]\nbody_limit = 8.5")).toEqual([
      `<dir>/strand.toml: server.body_limit: expected ${form}, got 8.5 (a float)`,
    ]);
    expect(strandErrors('[server]\nbody_limit = "1.5MiB"')).toEqual([
      `<dir>/strand.toml: server.body_limit: expected ${form}, got "1.5MiB"`,
    ]);
    expect(strandErrors('[server]\nbody_limit = "99999999GiB"')).toEqual([
      `<dir>/strand.toml: server.body_limit: expected ${form}, got "99999999GiB"`,
    ]);
  });

  test("[server] stall_limit_ms: a whole number of milliseconds from 1 to a day", () => {
    const dir = project({ "strand.toml": "[server]\nstall_limit_ms = 250\n" });
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), given: given({ frontDoor: { stallLimitMs: 250 } }) },
    });
    expect(strandErrors("[server]\nstall_limit_ms = 0")).toEqual([
      "<dir>/strand.toml: server.stall_limit_ms: expected an integer from 1 to 86400000, got 0",
    ]);
    expect(strandErrors('[server]\nstall_limit_ms = "30s"')).toEqual([
      '<dir>/strand.toml: server.stall_limit_ms: expected an integer from 1 to 86400000, got "30s"',
    ]);
  });

  test("[server] max_connections_per_client: a whole number from 1 to a million", () => {
    const dir = project({ "strand.toml": "[server]\nmax_connections_per_client = 200\n" });
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), given: given({ frontDoor: { maxConnectionsPerClient: 200 } }) },
    });
    expect(strandErrors("[server]\nmax_connections_per_client = 0")).toEqual([
      "<dir>/strand.toml: server.max_connections_per_client: expected an integer from 1 to 1000000, got 0",
    ]);
  });

  test("[server] query_timeout_ms: a whole number of milliseconds up to a day, 0 for no limit", () => {
    for (const ms of [0, 1500]) {
      const dir = project({ "strand.toml": `[server]\nquery_timeout_ms = ${ms}\n` });
      expect(loadProjectConfig(dir)).toEqual({
        ok: true,
        config: { ...DEFAULT_CONFIG, file: path.join(dir, "strand.toml"), given: given({ store: { queryTimeoutMs: ms } }) },
      });
    }
    expect(strandErrors("[server]\nquery_timeout_ms = -1")).toEqual([
      "<dir>/strand.toml: server.query_timeout_ms: expected an integer from 0 to 86400000, got -1",
    ]);
    expect(strandErrors('[server]\nquery_timeout_ms = "1m"')).toEqual([
      '<dir>/strand.toml: server.query_timeout_ms: expected an integer from 0 to 86400000, got "1m"',
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
      "<dir>/strand.toml: extra: unknown key (known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [server], [vector], [replication], [cluster])",
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
      "<dir>/strand.toml: mcp_idle_timeout: unknown key (known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [server], [vector], [replication], [cluster])",
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
    const expected = (m: string) => `<dir>/strand.toml: embedding_model: unknown embedding model "${m}": expected ${FORMS}`;
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

  test("bad values of the keys Strand reads name the key; unknown keys are no error there", () => {
    const dir = project({
      "helix.toml":
        '[local.dev]\nport = 6969\nvector_config = { m = "16", ef = 5 }\nbm25 = "on"\nembedding_model = "voyage:x"\nturbo = true\n[extras]\n',
    });
    expect(errorsOf(dir, loadProjectConfig(dir))).toEqual([
      '<dir>/helix.toml: local.dev.bm25: expected true or false, got "on"',
      `<dir>/helix.toml: local.dev.embedding_model: unknown embedding model "voyage:x": expected ${FORMS}`,
      '<dir>/helix.toml: local.dev.vector_config.m: expected an integer from 2 to 1000000, got "16"',
    ]);
  });

  test("keys HelixDB v2 accepts and Strand does not know are ignored, named in one warning (issue 11 J)", () => {
    const dir = project({
      "helix.toml": [
        "[project]",
        'name = "app"',
        'version = "1.0.0"',
        'queries = "./db/"',
        "[local.dev]",
        "port = 6969",
        "turbo = true",
        "vector_config = { m = 32, ef_construction = 200, ef_search = 768, db_max_size_gb = 20 }",
        "[local.dev.extra]",
        "x = 1",
        "[extras]",
        "y = 2",
      ].join("\n"),
    });
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: {
        ...DEFAULT_CONFIG,
        file: path.join(dir, "helix.toml"),
        section: "local.dev",
        queries: "./db/",
        vector: { m: 32, efConstruction: 200, efSearch: 768, metric: "cosine" },
      },
      warnings: [
        `${path.join(dir, "helix.toml")}: ignoring keys Strand does not use: extras, local.dev.extra, local.dev.turbo, local.dev.vector_config.db_max_size_gb, project.version`,
      ],
    });
    // Without [local.*] too; the values Strand reads next to them are still checked.
    const only = project({ "helix.toml": '[project]\nname = "x"\nversion = "1.0.0"\n' });
    expect(loadProjectConfig(only)).toMatchObject({
      ok: true,
      warnings: [`${path.join(only, "helix.toml")}: ignoring keys Strand does not use: project.version`],
    });
    const bad = project({ "helix.toml": "[local.dev]\nvector_config = { db_max_size_gb = 20, m = 1 }\n" });
    expect(errorsOf(bad, loadProjectConfig(bad))).toEqual([
      "<dir>/helix.toml: local.dev.vector_config.m: expected an integer from 2 to 1000000, got 1",
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

  test("a bad [project] value names the key; an unknown [project] key is only warned about", () => {
    const dir = project({ "helix.toml": '[project]\nname = 1\nqueries = ""\ncontainer_runtime = "lxc"\nquery = "./db/"\n[local.dev]\n' });
    expect(errorsOf(dir, loadProjectConfig(dir))).toEqual([
      "<dir>/helix.toml: project.queries: expected a non-empty path",
      "<dir>/helix.toml: project.name: expected a string, got 1",
      '<dir>/helix.toml: project.container_runtime: expected one of "docker", "podman", got "lxc"',
    ]);
    const typo = project({ "helix.toml": '[project]\nquery = "./db/"\n' });
    expect(loadProjectConfig(typo)).toMatchObject({
      ok: true,
      config: { queries: null },
      warnings: [`${path.join(typo, "helix.toml")}: ignoring keys Strand does not use: project.query`],
    });
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

describe("config.hx.json (HelixDB CLI v1 projects)", () => {
  const V1 = JSON.stringify({
    vector_config: { m: 32, ef_construction: 200, ef_search: 768 },
    graph_config: { secondary_indices: [] },
    db_max_size_gb: 10,
    mcp: false,
    bm25: false,
    embedding_model: "openai:text-embedding-3-small",
    graphvis_node_label: "",
  });

  test("vector_config, bm25, mcp and embedding_model are read; what cannot be honoured is one warning each", () => {
    const dir = project({ "config.hx.json": V1 });
    const file = path.join(dir, "config.hx.json");
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: {
        ...DEFAULT_CONFIG,
        file,
        bm25: false,
        mcp: false,
        embeddingModel: "openai:text-embedding-3-small",
        vector: { m: 32, efConstruction: 200, efSearch: 768, metric: "cosine" },
      },
      warnings: [`${file}: db_max_size_gb is not honoured: Strand's store has no size cap; it grows as data is added`],
    });
  });

  test("secondary indices, the visualizer label and unknown keys are named, never silently ignored", () => {
    const dir = project({
      "config.hx.json": JSON.stringify({
        vector_config: { m: 16, db_max_size: 5, metric: "l2" },
        graph_config: { secondary_indices: ["email"], extra: 1 },
        graphvis_node_label: "name",
        telemetry: true,
      }),
    });
    const file = path.join(dir, "config.hx.json");
    expect(loadProjectConfig(dir)).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file },
      warnings: [
        `${file}: vector_config.db_max_size is not honoured: Strand's store has no size cap; it grows as data is added`,
        `${file}: graph_config.secondary_indices is not honoured: Strand indexes the fields the schema declares INDEX (e.g. N::User { INDEX email: String }), got ["email"]`,
        `${file}: graphvis_node_label is not honoured: Strand has no graph visualizer`,
        `${file}: ignoring keys Strand does not use: graph_config.extra, telemetry, vector_config.metric`,
      ],
    });
  });

  test("bad values of the keys Strand reads, and malformed files, are errors naming the key", () => {
    let dir = project({
      "config.hx.json": JSON.stringify({
        vector_config: { m: 1.5, ef_construction: "128", ef_search: 0 },
        bm25: "yes",
        mcp: 1,
        embedding_model: "text-embedding-ada-002",
        graph_config: [],
      }),
    });
    expect(errorsOf(dir, loadProjectConfig(dir))).toEqual([
      '<dir>/config.hx.json: bm25: expected true or false, got "yes"',
      "<dir>/config.hx.json: mcp: expected true or false, got 1",
      `<dir>/config.hx.json: embedding_model: embedding model "text-embedding-ada-002" names no provider: write it with one, e.g. "openai:text-embedding-ada-002"; expected ${FORMS}`,
      "<dir>/config.hx.json: vector_config.m: expected an integer from 2 to 1000000, got 1.5",
      '<dir>/config.hx.json: vector_config.ef_construction: expected an integer from 1 to 1000000, got "128"',
      "<dir>/config.hx.json: vector_config.ef_search: expected an integer from 1 to 1000000, got 0",
      "<dir>/config.hx.json: graph_config: expected an object, got []",
    ]);
    dir = project({ "config.hx.json": "{ nope" });
    expect(errorsOf(dir, loadProjectConfig(dir))[0]).toMatch(/^<dir>\/config\.hx\.json: invalid JSON: /);
    dir = project({ "config.hx.json": "[1, 2]" });
    expect(errorsOf(dir, loadProjectConfig(dir))).toEqual(["<dir>/config.hx.json: expected a JSON object, got [1,2]"]);
  });

  test("precedence: strand.toml > helix.toml > config.hx.json, and a config.hx.json not read is said so", () => {
    const both = project({ "helix.toml": "[local.dev]\nbm25 = false\n", "config.hx.json": V1, "a.hx": "" });
    expect(loadProjectLayout(both)).toEqual({
      ok: true,
      config: { ...DEFAULT_CONFIG, file: path.join(both, "helix.toml"), section: "local.dev", bm25: false },
      sources: both,
      warnings: [
        `${path.join(both, "config.hx.json")}: not read: ${path.join(both, "helix.toml")} takes precedence (strand.toml > helix.toml > config.hx.json)`,
      ],
    });
    const strand = project({ "strand.toml": "mcp = false\n", "helix.toml": "[local.dev]\nbm25 = false\n", "config.hx.json": V1 });
    expect(loadProjectLayout(strand)).toMatchObject({
      ok: true,
      config: { file: path.join(strand, "strand.toml"), mcp: false, bm25: true },
      warnings: [expect.stringContaining("config.hx.json: not read: ")],
    });
  });

  test("a v1 project folder, and a root holding helixdb-cfg/ (HelixDB CLI v1's default), read it with its .hx files", () => {
    const root = tempDir("strand-v1-");
    dirs.push(root);
    const cfg = path.join(root, "helixdb-cfg");
    fs.mkdirSync(cfg);
    fs.writeFileSync(path.join(cfg, "config.hx.json"), JSON.stringify({ bm25: false, db_max_size_gb: 10 }));
    fs.writeFileSync(path.join(cfg, "schema.hx"), "N::User { name: String }\n");
    const expected = {
      ok: true,
      config: { ...DEFAULT_CONFIG, file: path.join(cfg, "config.hx.json"), bm25: false },
      sources: cfg,
      warnings: [
        `${path.join(cfg, "config.hx.json")}: db_max_size_gb is not honoured: Strand's store has no size cap; it grows as data is added`,
      ],
    };
    expect(loadProjectLayout(cfg)).toEqual(expected);
    expect(loadProjectLayout(root)).toEqual(expected);
  });
});

describe("config.hx.json left in the queries folder of a helix.toml", () => {
  test("the helix.toml one level up wins, from either folder, and the config.hx.json is named (even when malformed)", () => {
    const root = tempDir("strand-v1-left-");
    dirs.push(root);
    fs.writeFileSync(path.join(root, "helix.toml"), '[project]\nname = "app"\nqueries = "./db/"\n[local.dev]\nbm25 = false\n');
    const db = path.join(root, "db");
    fs.mkdirSync(db);
    fs.writeFileSync(path.join(db, "schema.hx"), "N::User { name: String }\n");
    fs.writeFileSync(path.join(db, "config.hx.json"), "{ not json");
    const expected = {
      ok: true,
      config: { ...DEFAULT_CONFIG, file: path.join(root, "helix.toml"), section: "local.dev", queries: "./db/", bm25: false },
      sources: db,
      warnings: [
        `${path.join(db, "config.hx.json")}: not read: ${path.join(root, "helix.toml")} takes precedence (strand.toml > helix.toml > config.hx.json)`,
      ],
    };
    expect(loadProjectLayout(root)).toEqual(expected);
    expect(loadProjectLayout(db)).toEqual(expected);
  });
});
