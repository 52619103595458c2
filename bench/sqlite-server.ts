// The peer a user would pick instead of Strand for a small graph service: Hono on
// @hono/node-server over SQLite (better-sqlite3), integer keys, one process, one thread. It serves
// the bench graph (bench/fill.ts `buildGraph`: item i is `{name: "item i", n: i}`, its out-links
// the targets file's `fanout` entries) with the answers Strand's bench queries give, so the HTTP
// comparison does the same work on both sides:
//   POST /read {id}      → {"item": {...}}           (Strand: GetItem)
//   POST /one-hop {id}   → {"items": [{...}, ..]}    (OneHop)
//   POST /two-hop {id}   → {"items": [{...}, ..]}    (TwoHop)
//   POST /write {name,n} → {"item": {...}}           (AddItem; WAL, synchronous=FULL: durable at answer)
//
//   node dist/bench/sqlite-server.js --build --path DB --targets FILE --fanout F
//   node dist/bench/sqlite-server.js --path DB [--port 0]
// The first builds the database and exits (so the server's peak memory is its serving's); the
// second prints `{"ready":true,"url":..}` (and sends it over IPC when forked) once it listens.
import { announceAndServe, argValue, runAsScript } from "./child-server.js";
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { openDurableSqlite } from "./sqlite.js";
import { itemProps } from "./fill.js";

interface ItemRow {
  id: number;
  name: string;
  n: number;
}

/** Builds the graph of `targets` (node i's out-links are targets[i*fanout .. (i+1)*fanout)). */
export async function buildSqliteGraph(path: string, targets: Int32Array, fanout: number): Promise<void> {
  const db = await openDurableSqlite(path);
  db.exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER NOT NULL);
           CREATE TABLE links (src INTEGER NOT NULL, dst INTEGER NOT NULL);`);
  const nodes = targets.length / fanout;
  const addItem = db.prepare("INSERT INTO items (id, name, n) VALUES (?, ?, ?)");
  const addLink = db.prepare("INSERT INTO links (src, dst) VALUES (?, ?)");
  db.transaction(() => {
    for (let i = 0; i < nodes; i++) {
      const { name, n } = itemProps(i);
      addItem.run(i, name, n);
    }
    for (let e = 0; e < targets.length; e++) addLink.run(Math.floor(e / fanout), targets[e]);
  })();
  db.exec("CREATE INDEX links_src ON links (src)");
  db.close();
}

function item(row: ItemRow): { id: number; label: string; name: string; n: number } {
  return { id: row.id, label: "Item", name: row.name, n: row.n };
}

export async function startSqliteServer(path: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const db = await openDurableSqlite(path);
  const read = db.prepare("SELECT id, name, n FROM items WHERE id = ?");
  const oneHop = db.prepare("SELECT i.id, i.name, i.n FROM links l JOIN items i ON i.id = l.dst WHERE l.src = ?");
  const twoHop = db.prepare(
    "SELECT i.id, i.name, i.n FROM links a JOIN links b ON b.src = a.dst JOIN items i ON i.id = b.dst WHERE a.src = ?",
  );
  const write = db.prepare("INSERT INTO items (name, n) VALUES (?, ?) RETURNING id, name, n");
  const app = new Hono();
  const idOf = async (c: { req: { json(): Promise<unknown> } }): Promise<number | null> => {
    const body = (await c.req.json()) as { id?: unknown };
    return typeof body.id === "number" ? body.id : null;
  };
  app.post("/read", async (c) => {
    const row = read.get(await idOf(c)) as ItemRow | undefined;
    if (row === undefined) return c.json({ error: "not found", code: "NOT_FOUND" }, 404);
    return c.json({ item: item(row) });
  });
  app.post("/one-hop", async (c) => c.json({ items: (oneHop.all(await idOf(c)) as ItemRow[]).map(item) }));
  app.post("/two-hop", async (c) => c.json({ items: (twoHop.all(await idOf(c)) as ItemRow[]).map(item) }));
  app.post("/write", async (c) => {
    const body = (await c.req.json()) as { name?: unknown; n?: unknown };
    const row = write.get(String(body.name), Number(body.n)) as ItemRow;
    return c.json({ item: item(row) });
  });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: "127.0.0.1" }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          db.close();
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const path = argValue(args, "--path");
  if (path === undefined) throw new Error("usage: sqlite-server --path DB [--port N] | --build --path DB --targets FILE --fanout F");
  if (args.includes("--build")) {
    const file = readFileSync(argValue(args, "--targets") ?? "");
    const targets = new Int32Array(file.buffer, file.byteOffset, file.byteLength / 4);
    await buildSqliteGraph(path, targets, Number(argValue(args, "--fanout")));
    return;
  }
  const server = await startSqliteServer(path, Number(argValue(args, "--port") ?? "0"));
  announceAndServe({ ready: true, url: server.url }, server);
}

runAsScript(import.meta.url, main);
