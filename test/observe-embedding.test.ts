// /metrics counts embedding providers' work: each embed call (one batch of texts) per provider and
// model, its texts, its failures and its duration; texts the embedding cache holds never reach
// a provider. With the built-in `hash` embedder as the project's default, and a query whose
// `#[model("openai:..")]` the environment cannot serve (no OPENAI_API_KEY), which fails.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryModule } from "../core/query-module.js";
import type { ScalarName, SchemaDescriptor, ValueType } from "../core/schema.js";
import { embeddersFor } from "../runtime/embed/embedders.js";
import { hashEmbedder } from "../runtime/embed/hash.js";
import { type EmbedCall, observedEmbedders } from "../runtime/embed/observed.js";
import { GraphStore } from "../runtime/graph-store.js";
import { type RunningServer, startServer } from "../server/server.js";
import { samples } from "./support/metrics-text.js";

const s = (name: ScalarName): ValueType => ({ kind: "scalar", name });
const schema: SchemaDescriptor = {
  nodes: [],
  vectors: [{ name: "Doc", fields: [{ name: "text", type: s("String"), index: "none", default: null }] }],
  edges: [],
};
const OPENAI = "openai:text-embedding-3-small";

/** `AddV<Doc>(Embed(text), {text})`, with the project's model (null) or `model`. */
function addDoc(name: string, model: string | null): QueryModule {
  return {
    name,
    params: [{ name: "text", type: s("String"), optional: false }],
    writes: true,
    mcp: false,
    returns: ["doc"],
    run: (db, p) => ({ doc: db.addVector("Doc", db.embed(p.text as string, model), { text: p.text as string }) }),
  };
}

describe("embedding metrics of a running server", () => {
  let dir: string;
  let store: GraphStore;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "strand-observe-embedding-"));
    store = GraphStore.open({ path: dir, schema });
    server = await startServer({
      store,
      schema,
      queries: [addDoc("AddDoc", null), addDoc("AddDocOpenai", OPENAI)],
      // The environment has no OPENAI_API_KEY: the openai model's every call fails.
      embedders: embeddersFor(hashEmbedder(), {}),
      port: 0,
    });
  });

  afterAll(async () => {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (query: string, text: string): Promise<[number, unknown]> => {
    const res = await fetch(`http://127.0.0.1:${server.port}/${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text }),
    });
    const body = (await res.json()) as { code?: unknown };
    return [res.status, body.code];
  };

  it("counts calls, texts, errors and durations per provider and model; cached texts are not calls", async () => {
    expect(await call("AddDoc", "graph databases")).toEqual([200, undefined]);
    expect(await call("AddDoc", "graph databases")).toEqual([200, undefined]); // from the cache
    expect(await call("AddDoc", "vector search")).toEqual([200, undefined]);
    expect(await call("AddDocOpenai", "anything")).toEqual([502, "EMBEDDING_FAILED"]);
    const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
    const hash = 'provider="hash",model="hash"';
    const openai = `provider="openai",model="${OPENAI}"`;
    expect(samples(text, "strand_embedding_calls_total")).toEqual([
      `strand_embedding_calls_total{${hash}} 2`,
      `strand_embedding_calls_total{${openai}} 1`,
    ]);
    expect(samples(text, "strand_embedding_texts_total")).toEqual([
      `strand_embedding_texts_total{${hash}} 2`,
      `strand_embedding_texts_total{${openai}} 1`,
    ]);
    expect(samples(text, "strand_embedding_errors_total")).toEqual([`strand_embedding_errors_total{${openai}} 1`]);
    expect(samples(text, "strand_embedding_duration_seconds_count")).toEqual([
      `strand_embedding_duration_seconds_count{${hash}} 2`,
      `strand_embedding_duration_seconds_count{${openai}} 1`,
    ]);
    expect(samples(text, "strand_http_requests_total")).toEqual([
      'strand_http_requests_total{route="AddDoc",status="200",code="none"} 3',
      'strand_http_requests_total{route="AddDocOpenai",status="502",code="EMBEDDING_FAILED"} 1',
    ]);
  });
});

describe("observedEmbedders", () => {
  it("reports each call with its provider, model, size and outcome, and passes results and failures on", async () => {
    const calls: Omit<EmbedCall, "seconds">[] = [];
    const embedders = observedEmbedders(embeddersFor(hashEmbedder(), {}), ({ seconds, ...rest }) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      calls.push(rest);
    });
    expect(embedders(null)).toBe(embedders(null));
    expect((await embedders(null).embed(["a", "b"])).map((v) => v.length)).toEqual([256, 256]);
    await expect(embedders(OPENAI).embed(["c"])).rejects.toMatchObject({ code: "EMBEDDING_FAILED" });
    await expect(embedders("no-such-model").embed(["d"])).rejects.toMatchObject({ code: "EMBEDDING_FAILED" });
    expect(calls).toEqual([
      { provider: "hash", model: "hash", texts: 2, error: null },
      { provider: "openai", model: OPENAI, texts: 1, error: "EMBEDDING_FAILED" },
      { provider: "unknown", model: "no-such-model", texts: 1, error: "EMBEDDING_FAILED" },
    ]);
  });
});
