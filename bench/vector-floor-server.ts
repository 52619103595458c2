// The vector floors over HTTP: the least work a server on our stack (Node, Hono on
// @hono/node-server, hnswlib-node, lmdb) could do to answer the bench's two vector routes.
//   POST /floor/search {"v"}      raw `searchKnn(v, k)` on the index file the bench built (the
//                                 same vectors Strand holds), at a fixed ef; {"hits": [{n, score}]}
//   POST /floor/add {"v", "n"}    one durable lmdb transaction putting {id, label, data, n}, the
//                                 vector added to an in-memory HNSW (grown by doubling, as
//                                 Strand's), acknowledged once flushed; {"vec": id}
// Run as a script in its own process (forked by vector-http.ts):
//   node dist/bench/vector-floor-server.js --index FILE --dim 128 --path DIR --add-dim 384 --ef 400 --k 10
// It sends {"ready":true,"url":...} over IPC once it accepts requests; SIGTERM/SIGINT close it.
import { announceAndServe, runAsScript } from "./child-server.js";
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import hnswlib from "hnswlib-node";
import { open } from "lmdb";
import { DEFAULT_VECTOR_OPTIONS } from "../runtime/vector/metric.js";
import { RANDOM_SEED } from "../runtime/vector/vector-index.js";

const { HierarchicalNSW } = hnswlib;

export interface VectorFloorOptions {
  /** hnswlib index file of the searched vectors (labels = vector numbers). */
  indexFile: string;
  dim: number;
  /** LMDB environment for the added vectors. */
  path: string;
  addDim: number;
  ef: number;
  k: number;
}

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((x) => typeof x === "number" && Number.isFinite(x));
}

export async function startVectorFloor(options: VectorFloorOptions): Promise<{ url: string; close(): Promise<void> }> {
  const searched = new HierarchicalNSW(DEFAULT_VECTOR_OPTIONS.metric, options.dim);
  searched.readIndexSync(options.indexFile);
  searched.setEf(options.ef);
  const added = new HierarchicalNSW(DEFAULT_VECTOR_OPTIONS.metric, options.addDim);
  added.initIndex({
    maxElements: 1024,
    m: DEFAULT_VECTOR_OPTIONS.m,
    efConstruction: DEFAULT_VECTOR_OPTIONS.efConstruction,
    randomSeed: RANDOM_SEED,
  });
  let nextSlot = 0;
  const env = open({ path: options.path, maxDbs: 2 });
  const records = env.openDB<{ id: string; label: string; data: number[]; n: number }, string>({ name: "records" });

  const app = new Hono();
  app.post("/floor/search", async (c) => {
    const body = (await c.req.json()) as { v?: unknown };
    if (!isVector(body.v) || body.v.length !== options.dim) return c.json({ error: "v must be a vector", code: "INVALID_VALUE" }, 400);
    const { neighbors, distances } = searched.searchKnn(body.v, options.k);
    const hits = neighbors.map((n, i) => ({ n, score: 1 - distances[i]! })).sort((a, b) => b.score - a.score);
    return c.json({ hits });
  });
  app.post("/floor/add", async (c) => {
    const body = (await c.req.json()) as { v?: unknown; n?: unknown };
    if (!isVector(body.v) || body.v.length !== options.addDim || typeof body.n !== "number")
      return c.json({ error: "v, n", code: "INVALID_VALUE" }, 400);
    const v = body.v;
    const id = randomUUID();
    await env.transaction(() => records.put(id, { id, label: "Emb", data: v, n: body.n as number }));
    if (added.getCurrentCount() >= added.getMaxElements()) added.resizeIndex(added.getMaxElements() * 2);
    added.addPoint(v, nextSlot++);
    // With lmdb's default overlappingSync the transaction promise means committed, not flushed.
    await env.flushed;
    return c.json({ vec: id });
  });

  const host = "127.0.0.1";
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await env.close();
    },
  };
}

function argNumber(args: readonly string[], name: string): number {
  const n = Number(args[args.indexOf(name) + 1]);
  if (!args.includes(name) || !Number.isInteger(n) || n < 1) throw new Error(`vector-floor-server: ${name} must be a positive integer`);
  return n;
}

function argString(args: readonly string[], name: string): string {
  const value = args[args.indexOf(name) + 1];
  if (!args.includes(name) || value === undefined) throw new Error(`vector-floor-server: ${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const server = await startVectorFloor({
    indexFile: argString(args, "--index"),
    dim: argNumber(args, "--dim"),
    path: argString(args, "--path"),
    addDim: argNumber(args, "--add-dim"),
    ef: argNumber(args, "--ef"),
    k: argNumber(args, "--k"),
  });
  announceAndServe({ ready: true, url: server.url }, server);
}

runAsScript(import.meta.url, main);
