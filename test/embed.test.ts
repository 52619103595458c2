// Embedding providers against local HTTP servers that speak each provider's documented format:
// the exact request received, success, error status with the provider's message, malformed
// responses, network errors and timeouts. Plus the offline hash embedder.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { createEmbedder, type EmbedEnv, type Embedder } from "../runtime/embed/embedder.js";
import { HASH_DIMENSION, hashEmbedding } from "../runtime/embed/hash.js";
import { isStrandError } from "../core/errors.js";
import { MODEL_FORMS } from "../core/model-name.js";
import { httpStatus } from "../server/http/status.js";

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

type Reply = (req: Received) => { status?: number; body: unknown } | "hang";

const servers: http.Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A server answering each request with reply(request); returns its base URL and the log. */
async function serve(reply: Reply): Promise<{ base: string; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      const r: Received = { method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(data) };
      received.push(r);
      const out = reply(r);
      if (out === "hang") return;
      res.writeHead(out.status ?? 200, { "content-type": "application/json" });
      res.end(typeof out.body === "string" ? out.body : JSON.stringify(out.body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function embedder(model: string, env: EmbedEnv): Embedder {
  const r = createEmbedder(model, env);
  if (!r.ok) throw new Error(r.error);
  return r.embedder;
}

/** The EMBEDDING_FAILED message of a failing embed call (and that it is a 502). */
async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isStrandError(error) && error.code === "EMBEDDING_FAILED" && httpStatus(error.code) === 502) return error.message;
    throw error;
  }
  throw new Error("expected EMBEDDING_FAILED");
}

describe("openai:<model>", () => {
  const MODEL = "openai:text-embedding-3-small";

  test("POST /v1/embeddings with the bearer key and {model, input}; results ordered by index", async () => {
    const { base, received } = await serve(() => ({
      body: {
        object: "list",
        data: [
          { object: "embedding", index: 1, embedding: [0, 1, 0.5] },
          { object: "embedding", index: 0, embedding: [1, 0, -0.5] },
        ],
        model: "text-embedding-3-small",
        usage: { prompt_tokens: 4, total_tokens: 4 },
      },
    }));
    const e = embedder(MODEL, { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: base });
    expect(e.model).toBe(MODEL);
    expect(await e.embed(["first text", "second"])).toEqual([
      [1, 0, -0.5],
      [0, 1, 0.5],
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: "POST",
      url: "/v1/embeddings",
      body: { model: "text-embedding-3-small", input: ["first text", "second"] },
    });
    expect(received[0]!.headers.authorization).toBe("Bearer sk-test");
    expect(received[0]!.headers["content-type"]).toBe("application/json");
  });

  test("a base URL ending in /v1 (OpenAI SDK style) gets no second /v1; no key needed for a custom base", async () => {
    const { base, received } = await serve(() => ({ body: { data: [{ index: 0, embedding: [1] }] } }));
    await embedder(MODEL, { OPENAI_BASE_URL: `${base}/v1/` }).embed(["x"]);
    expect(received[0]!.url).toBe("/v1/embeddings");
    expect(received[0]!.headers.authorization).toBeUndefined();
  });

  test("many texts go in batches of 256", async () => {
    const { base, received } = await serve((r) => {
      const input = (r.body as { input: string[] }).input;
      return { body: { data: input.map((t, index) => ({ index, embedding: [Number(t)] })) } };
    });
    const texts = Array.from({ length: 300 }, (_, i) => String(i));
    expect(await embedder(MODEL, { OPENAI_API_KEY: "k", OPENAI_BASE_URL: base }).embed(texts)).toEqual(texts.map((t) => [Number(t)]));
    expect(received.map((r) => (r.body as { input: string[] }).input.length)).toEqual([256, 44]);
  });

  test("an error status carries the provider's message", async () => {
    const { base } = await serve(() => ({
      status: 401,
      body: {
        error: { message: "Incorrect API key provided: sk-bad.", type: "invalid_request_error", param: null, code: "invalid_api_key" },
      },
    }));
    const e = embedder(MODEL, { OPENAI_API_KEY: "sk-bad", OPENAI_BASE_URL: base });
    expect(await failure(e.embed(["x"]))).toBe(`embedding model ${MODEL}: HTTP 401: Incorrect API key provided: sk-bad.`);
  });

  test("malformed responses", async () => {
    const bodies: unknown[] = [
      { data: [{ index: 0, embedding: "nope" }] },
      { object: "list" },
      { data: [{ index: 0, embedding: [1] }] }, // one embedding for two texts
      {
        data: [
          { index: 0, embedding: [1, Number.NaN] },
          { index: 1, embedding: [] },
        ],
      },
      "this is not json",
      // finite, but beyond what the f32 vector index holds
      {
        data: [
          { index: 0, embedding: [1, 2] },
          { index: 1, embedding: [0.5, -1e39] },
        ],
      },
    ];
    let i = 0;
    const { base } = await serve(() => ({ body: bodies[i++] }));
    const e = embedder(MODEL, { OPENAI_API_KEY: "k", OPENAI_BASE_URL: base });
    const messages: string[] = [];
    for (let k = 0; k < bodies.length; k++) messages.push(await failure(e.embed(["a", "b"])));
    expect(messages).toEqual([
      `embedding model ${MODEL}: malformed response: data[0].embedding must be an array of numbers`,
      `embedding model ${MODEL}: malformed response: no data array`,
      `embedding model ${MODEL}: malformed response: 1 embeddings for 2 texts`,
      // NaN is sent as null in JSON
      `embedding model ${MODEL}: malformed response: data[0].embedding[1] must be a finite number, got null`,
      `embedding model ${MODEL}: the response is not JSON: this is not json`,
      `embedding model ${MODEL}: malformed response: data[1].embedding[1] must fit in F32 (magnitude at most 3.4028235e38, the range of the vector index), got -1e+39`,
    ]);
  });

  test("no response within the timeout", async () => {
    const { base } = await serve(() => "hang");
    const e = embedder(MODEL, { OPENAI_API_KEY: "k", OPENAI_BASE_URL: base, STRAND_EMBED_TIMEOUT_MS: "200" });
    expect(await failure(e.embed(["x"]))).toBe(`embedding model ${MODEL}: no response within 200 ms`);
  });

  test("a network error", async () => {
    const { base } = await serve(() => ({ body: {} }));
    const s = servers.pop()!;
    await new Promise((resolve) => s.close(resolve));
    const message = await failure(embedder(MODEL, { OPENAI_API_KEY: "k", OPENAI_BASE_URL: base }).embed(["x"]));
    expect(message).toMatch(
      new RegExp(`^embedding model ${MODEL}: request failed: fetch failed \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\)$`),
    );
  });
});

describe("gemini:<model>", () => {
  const MODEL = "gemini:text-embedding-004";

  test("one text: embedContent with the key in x-goog-api-key; no task type given: RETRIEVAL_DOCUMENT (HelixDB's default)", async () => {
    const { base, received } = await serve(() => ({ body: { embedding: { values: [0.25, -0.5] } } }));
    const e = embedder(MODEL, { GEMINI_API_KEY: "g-key", GEMINI_BASE_URL: base });
    expect(await e.embed(["hello world"])).toEqual([[0.25, -0.5]]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", url: "/v1beta/models/text-embedding-004:embedContent" });
    expect(received[0]!.body).toEqual({ content: { parts: [{ text: "hello world" }] }, taskType: "RETRIEVAL_DOCUMENT" });
    expect(received[0]!.headers["x-goog-api-key"]).toBe("g-key");
  });

  test("gemini:<model>:<TASK_TYPE>: the task type goes in the body's taskType, never in the URL (issue 11)", async () => {
    const { base, received } = await serve((r) =>
      r.url.endsWith(":embedContent")
        ? { body: { embedding: { values: [1, 0] } } }
        : { body: { embeddings: [{ values: [1] }, { values: [2] }] } },
    );
    const e = embedder("gemini:gemini-embedding-001:SEMANTIC_SIMILARITY", { GEMINI_API_KEY: "g", GEMINI_BASE_URL: `${base}/` });
    expect(e.model).toBe("gemini:gemini-embedding-001:SEMANTIC_SIMILARITY");
    expect(await e.embed(["one"])).toEqual([[1, 0]]);
    expect(await e.embed(["a", "b"])).toEqual([[1], [2]]);
    expect(received.map((r) => [r.method, r.url, r.headers["x-goog-api-key"], r.headers["content-type"]])).toEqual([
      ["POST", "/v1beta/models/gemini-embedding-001:embedContent", "g", "application/json"],
      ["POST", "/v1beta/models/gemini-embedding-001:batchEmbedContents", "g", "application/json"],
    ]);
    expect(received.map((r) => r.body)).toEqual([
      { content: { parts: [{ text: "one" }] }, taskType: "SEMANTIC_SIMILARITY" },
      {
        requests: [
          { model: "models/gemini-embedding-001", content: { parts: [{ text: "a" }] }, taskType: "SEMANTIC_SIMILARITY" },
          { model: "models/gemini-embedding-001", content: { parts: [{ text: "b" }] }, taskType: "SEMANTIC_SIMILARITY" },
        ],
      },
    ]);
  });

  test("several texts: batchEmbedContents, in batches of 100", async () => {
    const { base, received } = await serve((r) => {
      const requests = (r.body as { requests: { content: { parts: { text: string }[] } }[] }).requests;
      return { body: { embeddings: requests.map((q) => ({ values: [Number(q.content.parts[0]!.text)] })) } };
    });
    const texts = Array.from({ length: 150 }, (_, i) => String(i));
    expect(await embedder(MODEL, { GEMINI_API_KEY: "g", GEMINI_BASE_URL: base }).embed(texts)).toEqual(texts.map((t) => [Number(t)]));
    expect(received.map((r) => r.url)).toEqual([
      "/v1beta/models/text-embedding-004:batchEmbedContents",
      "/v1beta/models/text-embedding-004:batchEmbedContents",
    ]);
    expect((received[1]!.body as { requests: unknown[] }).requests).toEqual(
      texts
        .slice(100)
        .map((text) => ({ model: "models/text-embedding-004", content: { parts: [{ text }] }, taskType: "RETRIEVAL_DOCUMENT" })),
    );
  });

  test("an error status carries Google's message; malformed bodies are named", async () => {
    const replies = [
      {
        status: 400,
        body: { error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT" } },
      },
      { body: { embedding: { value: [1] } } },
      { body: { embeddings: [{ values: [1] }] } },
    ];
    let i = 0;
    const { base } = await serve(() => replies[i++]!);
    const e = embedder(MODEL, { GEMINI_API_KEY: "bad", GEMINI_BASE_URL: base });
    expect(await failure(e.embed(["x"]))).toBe(`embedding model ${MODEL}: HTTP 400: API key not valid. Please pass a valid API key.`);
    expect(await failure(e.embed(["x"]))).toBe(
      `embedding model ${MODEL}: malformed response: embedding.values must be an array of numbers`,
    );
    expect(await failure(e.embed(["x", "y"]))).toBe(`embedding model ${MODEL}: malformed response: 1 embeddings for 2 texts`);
  });

  test("timeout", async () => {
    const { base } = await serve(() => "hang");
    const e = embedder(MODEL, { GEMINI_API_KEY: "g", GEMINI_BASE_URL: base, STRAND_EMBED_TIMEOUT_MS: "150" });
    expect(await failure(e.embed(["x"]))).toBe(`embedding model ${MODEL}: no response within 150 ms`);
  });
});

describe("azure_openai:<deployment>", () => {
  const MODEL = "azure_openai:text-embedding-3-small";

  test("POST <endpoint>/openai/deployments/<deployment>/embeddings?api-version=.. with the api-key header and {input}", async () => {
    const { base, received } = await serve(() => ({
      body: {
        object: "list",
        data: [
          { object: "embedding", index: 1, embedding: [0, 1] },
          { object: "embedding", index: 0, embedding: [1, 0] },
        ],
        model: "text-embedding-3-small",
      },
    }));
    const e = embedder(MODEL, { AZURE_OPENAI_ENDPOINT: `${base}/`, AZURE_OPENAI_API_KEY: "az-key" });
    expect(e.model).toBe(MODEL);
    expect(await e.embed(["first", "second"])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(received).toHaveLength(1);
    const r = received[0]!;
    expect([r.method, r.url]).toEqual(["POST", "/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21"]);
    expect(r.headers["api-key"]).toBe("az-key");
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers.authorization).toBeUndefined();
    expect(r.body).toEqual({ input: ["first", "second"] });
  });

  test("AZURE_OPENAI_DEPLOYMENT and AZURE_OPENAI_API_VERSION override; errors carry Azure's message", async () => {
    const replies = [
      { body: { data: [{ index: 0, embedding: [0.5] }] } },
      { status: 401, body: { error: { code: "401", message: "Access denied due to invalid subscription key." } } },
    ];
    let i = 0;
    const { base, received } = await serve(() => replies[i++]!);
    const env = {
      AZURE_OPENAI_ENDPOINT: base,
      AZURE_OPENAI_API_KEY: "k",
      AZURE_OPENAI_DEPLOYMENT: "my embed/prod",
      AZURE_OPENAI_API_VERSION: "2024-02-01",
    };
    const e = embedder(MODEL, env);
    expect(await e.embed(["x"])).toEqual([[0.5]]);
    expect(received[0]!.url).toBe("/openai/deployments/my%20embed%2Fprod/embeddings?api-version=2024-02-01");
    expect(await failure(e.embed(["x"]))).toBe(`embedding model ${MODEL}: HTTP 401: Access denied due to invalid subscription key.`);
  });

  test("missing or malformed settings stop startup, naming them", () => {
    expect(createEmbedder(MODEL, {})).toEqual({
      ok: false,
      error: `embedding model ${MODEL} needs AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY`,
    });
    expect(createEmbedder(MODEL, { AZURE_OPENAI_ENDPOINT: "https://r.openai.azure.com" })).toEqual({
      ok: false,
      error: `embedding model ${MODEL} needs AZURE_OPENAI_API_KEY`,
    });
    expect(createEmbedder(MODEL, { AZURE_OPENAI_ENDPOINT: "r.openai.azure.com", AZURE_OPENAI_API_KEY: "k" })).toEqual({
      ok: false,
      error: 'AZURE_OPENAI_ENDPOINT must be an http(s) URL such as https://<resource>.openai.azure.com, got "r.openai.azure.com"',
    });
  });
});

describe("local", () => {
  test('POST {"text"} per text to STRAND_LOCAL_EMBED_URL, reading {"embedding"}', async () => {
    const { base, received } = await serve((r) => ({ body: { embedding: [(r.body as { text: string }).text.length, 1] } }));
    const e = embedder("local", { STRAND_LOCAL_EMBED_URL: `${base}/embed` });
    expect(await e.embed(["a", "bbb", "cc", "dddd", "eeeee"])).toEqual([
      [1, 1],
      [3, 1],
      [2, 1],
      [4, 1],
      [5, 1],
    ]);
    expect(received.map((r) => [r.method, r.url])).toEqual(Array(5).fill(["POST", "/embed"]));
    expect(received.map((r) => r.body).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))).toEqual([
      { text: "a" },
      { text: "bbb" },
      { text: "cc" },
      { text: "dddd" },
      { text: "eeeee" },
    ]);
  });

  test("error status, malformed body, timeout", async () => {
    const replies: ReturnType<Reply>[] = [
      { status: 500, body: "model not loaded" },
      { status: 503, body: { error: "warming up" } },
      { body: { vector: [1] } },
      "hang",
    ];
    let i = 0;
    const { base } = await serve(() => replies[i++]!);
    const e = embedder("local", { STRAND_LOCAL_EMBED_URL: `${base}/embed`, STRAND_EMBED_TIMEOUT_MS: "150" });
    expect(await failure(e.embed(["x"]))).toBe("embedding model local: HTTP 500: model not loaded");
    expect(await failure(e.embed(["x"]))).toBe("embedding model local: HTTP 503: warming up");
    expect(await failure(e.embed(["x"]))).toBe("embedding model local: malformed response: embedding must be an array of numbers");
    expect(await failure(e.embed(["x"]))).toBe("embedding model local: no response within 150 ms");
  });
});

describe("createEmbedder", () => {
  test("configuration errors are values, never a fallback", () => {
    expect(createEmbedder("cohere:embed", {})).toEqual({
      ok: false,
      error: `unknown embedding model "cohere:embed": expected ${MODEL_FORMS}`,
    });
    // A bare model name (no provider) says so and shows how to write it (issue 11).
    expect(createEmbedder("text-embedding-3-small", {})).toEqual({
      ok: false,
      error: `embedding model "text-embedding-3-small" names no provider: write it with one, e.g. "openai:text-embedding-3-small"; expected ${MODEL_FORMS}`,
    });
    expect(createEmbedder("gemini:gemini-embedding-001:retrieval_query", { GEMINI_API_KEY: "g" })).toEqual({
      ok: false,
      error:
        'embedding model "gemini:gemini-embedding-001:retrieval_query": unknown task type "retrieval_query"; task types: RETRIEVAL_DOCUMENT, RETRIEVAL_QUERY, SEMANTIC_SIMILARITY, CLASSIFICATION, CLUSTERING, QUESTION_ANSWERING, FACT_VERIFICATION, CODE_RETRIEVAL_QUERY, TASK_TYPE_UNSPECIFIED',
    });
    expect(createEmbedder("gemini::RETRIEVAL_QUERY", { GEMINI_API_KEY: "g" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("expected gemini:<model>:<TASK_TYPE>"),
    });
    expect(MODEL_FORMS).toBe(`"hash", "local", "openai:<model>", "gemini:<model>[:<TASK_TYPE>]" or "azure_openai:<deployment>"`);
    expect(createEmbedder("openai:text-embedding-3-small", {})).toEqual({
      ok: false,
      error: "embedding model openai:text-embedding-3-small needs OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server)",
    });
    expect(createEmbedder("gemini:text-embedding-004", { GEMINI_BASE_URL: "http://x" })).toEqual({
      ok: false,
      error: "embedding model gemini:text-embedding-004 needs GEMINI_API_KEY",
    });
    expect(createEmbedder("hash", { STRAND_EMBED_TIMEOUT_MS: "soon" })).toEqual({
      ok: false,
      error: 'STRAND_EMBED_TIMEOUT_MS must be a positive integer (milliseconds), got "soon"',
    });
    expect(createEmbedder("local", {})).toMatchObject({ ok: true, embedder: { model: "local" } });
  });
});

describe("hash", () => {
  const cosine = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

  test("deterministic, L2-normalised, fixed dimension", async () => {
    const [a, b] = await embedder("hash", {}).embed(["The quick brown fox", "The quick brown fox"]);
    expect(a).toHaveLength(HASH_DIMENSION);
    expect(a).toEqual(b);
    expect(Math.abs(cosine(a!, a!) - 1)).toBeLessThan(1e-12);
    // The same terms after normalisation: case and punctuation do not matter.
    expect(hashEmbedding("the QUICK, brown fox!")).toEqual(a);
  });

  test("lexical similarity: shared words and spellings score higher than unrelated text", () => {
    const q = hashEmbedding("graph database");
    expect(cosine(q, hashEmbedding("graph databases"))).toBeGreaterThan(cosine(q, hashEmbedding("cooking with garlic")));
    expect(cosine(q, hashEmbedding("a graph database for agents"))).toBeGreaterThan(cosine(q, hashEmbedding("a vector store for agents")));
  });

  test("text without terms is one fixed unit vector", () => {
    const empty = hashEmbedding("");
    expect(hashEmbedding("  ?! ")).toEqual(empty);
    expect(empty.filter((x) => x !== 0).map(Math.abs)).toEqual([1]);
  });
});
