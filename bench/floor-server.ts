// The floors: the least work any server answering a read or a durable write over HTTP on this
// machine could do with the same stack (Node, Hono on @hono/node-server, lmdb). A read is one
// lmdb `get` of a pre-filled record; a write is one durable transaction with two puts (a record
// and an index entry), acknowledged only once flushed to disk, exactly as Strand's store does.
//
// Usable in-process (`startFloorServer`) or as a script in its own process:
//   node dist/bench/floor-server.js --port 0 --path /tmp/floor-db [--records 100000]
// which prints one JSON line `{"ready":true,"port":...,"records":...}` on stdout (and sends the
// same object over IPC when forked) once it accepts requests; SIGTERM/SIGINT close it.
import { announceAndServe, argValue, runAsScript } from "./child-server.js";
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { open } from "lmdb";

export interface FloorRecord {
  id: string;
  label: string;
  name: string;
  email: string;
  age: number;
  created_at: string;
}

export interface FloorServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Directory of the LMDB environment (created if missing; existing records are overwritten). */
  path: string;
  /** Records to pre-fill; default 100,000. */
  records?: number;
  host?: string;
}

export interface FloorServer {
  port: number;
  url: string;
  /** Ids of the pre-filled records, for `/floor/read` bodies. */
  ids: string[];
  close(): Promise<void>;
}

export const DEFAULT_FLOOR_RECORDS = 100_000;
const PREFILL_BATCH = 10_000;

/** The id of pre-filled record i; deterministic so another process can build read bodies. */
export function floorRecordId(i: number): string {
  return `rec-${String(i).padStart(8, "0")}`;
}

function record(id: string, i: number): FloorRecord {
  return {
    id,
    label: "User",
    name: `user ${i}`,
    email: `user${i}@example.com`,
    age: 18 + (i % 60),
    created_at: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
  };
}

export async function startFloorServer(options: FloorServerOptions): Promise<FloorServer> {
  const count = options.records ?? DEFAULT_FLOOR_RECORDS;
  const host = options.host ?? "127.0.0.1";
  // lmdb's defaults are the durable ones (synced commits, no write map), as in runtime/store.
  const env = open({ path: options.path, maxDbs: 4 });
  const records = env.openDB<FloorRecord, string>({ name: "records" });
  const byName = env.openDB<string, string>({ name: "by_name" });

  const ids: string[] = [];
  for (let start = 0; start < count; start += PREFILL_BATCH) {
    await env.transaction(() => {
      for (let i = start; i < Math.min(count, start + PREFILL_BATCH); i++) {
        const id = floorRecordId(i);
        ids.push(id);
        records.put(id, record(id, i));
      }
    });
  }
  await env.flushed;

  const app = new Hono();
  app.post("/floor/read", async (c) => {
    const body = (await c.req.json()) as { id?: unknown };
    const found = typeof body.id === "string" ? records.get(body.id) : undefined;
    if (found === undefined) return c.json({ error: "not found", code: "NOT_FOUND" }, 404);
    return c.json(found);
  });
  app.post("/floor/write", async (c) => {
    const body = (await c.req.json()) as { name?: unknown };
    const name = typeof body.name === "string" ? body.name : "";
    const id = randomUUID();
    const created: FloorRecord = { ...record(id, 0), name };
    await env.transaction(() => {
      records.put(id, created);
      byName.put(name, id);
    });
    // With lmdb's default overlappingSync the transaction promise means committed, not flushed.
    await env.flushed;
    return c.json(created);
  });

  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    port,
    url: `http://${host}:${port}`,
    ids,
    close(): Promise<void> {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await env.close();
      })();
      return closing;
    },
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const path = argValue(args, "--path");
  if (path === undefined) throw new Error("usage: floor-server --path DIR [--port N] [--records N]");
  const server = await startFloorServer({
    path,
    port: Number(argValue(args, "--port") ?? "0"),
    records: Number(argValue(args, "--records") ?? String(DEFAULT_FLOOR_RECORDS)),
  });
  announceAndServe({ ready: true, port: server.port, url: server.url, records: server.ids.length }, server);
}

runAsScript(import.meta.url, main);
