// Answers whose JSON text is longer than V8 can hold in one string (about 512 MiB) are written in
// chunks (server/http/json-answer.ts): the client gets exactly what JSON.stringify would have
// written, where the server used to answer 500 INTERNAL after the work was done.
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryModule } from "../core/query-module.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { Hono } from "hono";
import { jsonAnswer, jsonPieces, textSlices } from "../server/http/json-answer.js";
import { type RunningServer, startServer } from "../server/index.js";

describe("jsonPieces", () => {
  it("writes exactly JSON.stringify's text, member by member", () => {
    const values: unknown[] = [
      { a: 1, b: [1, "two", null, true, { c: [] }], d: {}, e: 'é\u2028"\\\n', f: -0, g: 1e21 },
      [undefined, () => 1, Symbol("s"), Number.NaN, Number.POSITIVE_INFINITY, [[[]]]],
      { skipped: undefined, fn: () => 1, sym: Symbol("s"), kept: 0 },
      { when: new Date(Date.UTC(2026, 10, 27, 8, 0, 0)), ["__proto__"]: { x: 1 } },
      { custom: { toJSON: (key: string) => `key was ${key}` }, list: [{ toJSON: (key: string) => key }] },
      { gone: { toJSON: () => undefined }, nested: [{ toJSON: () => undefined }] },
      [],
      {},
    ];
    for (const value of values) expect([...jsonPieces(value, "")].join("")).toBe(JSON.stringify(value));
  });
});

describe("textSlices", () => {
  it("hands a long answer on slice by slice, never between the halves of a surrogate pair", async () => {
    // 7 units per slice: the first pair 😀 (units 6-7) would straddle the first boundary, so that
    // slice ends before it; the second (units 18-19) ends a slice whole.
    const text = `{"a":"😀${"é".repeat(10)}😀x"}`;
    const reader = textSlices(text, 7).getReader();
    const slices: string[] = [];
    const decoder = new TextDecoder("utf-8", { fatal: true });
    for (let r = await reader.read(); !r.done; r = await reader.read()) slices.push(decoder.decode(r.value));
    expect(slices).toEqual(['{"a":"', "😀ééééé", "ééééé😀", 'x"}']);
    expect(slices.join("")).toBe(text);
  });

  it("is how a long answer leaves the engine: in slices, with its length, the same bytes", async () => {
    const value = { items: Array.from({ length: 40_000 }, (_, i) => ({ i, name: `ü-${i}` })) };
    const app = new Hono().get("/", (c) => jsonAnswer(c, value));
    const res = await app.request("/");
    const text = JSON.stringify(value);
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThanOrEqual(3 * 256 * 1024);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(text);
    // A short one is one string, as before.
    const small = await new Hono().get("/", (c) => jsonAnswer(c, { ok: 1 })).request("/");
    expect([small.headers.get("content-length"), await small.text()]).toEqual([null, '{"ok":1}']);
  });
});

describe("an answer longer than one string can hold", () => {
  const mib = "x".repeat(1 << 20);
  const copies = 600;
  const schema: SchemaDescriptor = { nodes: [], vectors: [], edges: [] };
  const big: QueryModule = {
    name: "Big",
    params: [],
    writes: false,
    mcp: false,
    returns: ["items", "count"],
    run: () => ({ items: Array.from({ length: copies }, () => mib), count: copies }),
  };
  let dir: string;
  let store: GraphStore;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "strand-json-answer-"));
    store = GraphStore.open({ path: dir, schema });
    // No answer limit: the 600 MiB answer is the point here (answer-limit.test.ts has the limit).
    server = await startServer({ store, queries: [big], schema, port: 0, answerLimitBytes: 0 });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("comes whole, byte for byte what one JSON.stringify would have written", async () => {
    // The expected text, {"items":["x…x",…],"count":600}, checked byte by byte as it arrives.
    const item = `"${mib}"`;
    const head = '{"items":[';
    const tail = `],"count":${copies}}`;
    const length = head.length + copies * item.length + (copies - 1) + tail.length;
    expect(length).toBeGreaterThan(2 ** 29); // longer than V8's longest string: one JSON.stringify throws
    const expectedAt = (p: number): number => {
      if (p < head.length) return head.charCodeAt(p);
      const q = p - head.length;
      if (q >= copies * (item.length + 1) - 1) return tail.charCodeAt(q - (copies * (item.length + 1) - 1));
      const r = q % (item.length + 1);
      return r === item.length ? 44 : r === 0 || r === item.length - 1 ? 34 : 120; // , " x
    };
    const reply = await new Promise<{ status: number; headers: Record<string, unknown>; received: number; firstWrong: number }>(
      (resolve, reject) => {
        const req = httpRequest(
          { host: "127.0.0.1", port: server.port, path: "/Big", method: "POST", headers: { "content-type": "application/json" } },
          (res) => {
            let received = 0;
            let firstWrong = -1;
            res.on("data", (d: Buffer) => {
              for (let i = 0; i < d.length && firstWrong < 0; i++) if (d[i] !== expectedAt(received + i)) firstWrong = received + i;
              received += d.length;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, received, firstWrong }));
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end("{}");
      },
    );
    expect(reply).toMatchObject({ status: 200, received: length, firstWrong: -1 });
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(reply.headers["transfer-encoding"]).toBe("chunked");
  }, 60_000);
});
