// `GET /backup` of a running `strand serve` (server/http/backup-route.ts): only with an api key;
// the body is data.mdb and the x-strand-backup-manifest header its manifest, which together form
// a backup directory `strand restore` takes.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { NodeItem } from "../core/items.js";
import { readManifest } from "../runtime/backup/manifest.js";
import { restoreBackup } from "../runtime/backup/restore.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { openDbs } from "../runtime/store/dbs.js";
import { call, startStrand, tempDir, type StrandServer } from "./support/server.js";
import { itemKey, labelRange } from "../runtime/store/keys.js";
import { GraphStore } from "../runtime/graph-store.js";
import { createApp } from "../server/app.js";
import { schema } from "./support/mcp-fixture.js";

const work = tempDir("strand-backup-http-");
const servers: StrandServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("GET /backup", () => {
  it("streams a backup behind the api key that restores and verifies", async () => {
    // The server's temporary copies go to its TMPDIR: checked empty afterwards.
    const serverTmp = path.join(work, "server-tmp");
    fs.mkdirSync(serverTmp);
    const server = await startStrand({ extraArgs: ["--api-key", "s3cret"], env: { TMPDIR: serverTmp } });
    servers.push(server);
    const key = { "x-api-key": "s3cret" };
    const users: NodeItem[] = [];
    for (const handle of ["h1", "h2", "h3"]) {
      const r = await call(server, "AddUser", { handle, name: handle, city: "Rome", age: 20 }, key);
      expect(r.status).toBe(200);
      users.push((r.body as { user: NodeItem }).user);
    }

    const refused = await fetch(`${server.url}/backup`);
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 401,
      body: { error: "missing x-api-key header", code: "UNAUTHORIZED" },
    });
    const post = await fetch(`${server.url}/backup`, { method: "POST", headers: key });
    expect(post.status).toBe(405);
    const head = await fetch(`${server.url}/backup`, { method: "HEAD", headers: key });
    expect([head.status, head.headers.get("allow")]).toEqual([405, "GET"]);

    const res = await fetch(`${server.url}/backup`, { headers: key });
    expect(fs.readdirSync(serverTmp)).toEqual([]);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    const manifestText = res.headers.get("x-strand-backup-manifest")!;
    const body = Buffer.from(await res.arrayBuffer());
    const dir = path.join(work, "from-http");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "data.mdb"), body);
    fs.writeFileSync(path.join(dir, "manifest.json"), manifestText);
    const manifest = readManifest(dir);
    expect(manifest).toEqual({
      format: "strand-backup",
      version: 1,
      created: expect.any(String),
      store_format: 5,
      schema_version: null,
      files: [{ path: "data.mdb", bytes: body.length, sha256: createHash("sha256").update(body).digest("hex") }],
    });
    expect(Number(res.headers.get("content-length"))).toBe(body.length);
    // Writes still work after (the copy held a read snapshot only while copying).
    expect((await call(server, "AddUser", { handle: "h4", name: "h4", city: "Rome", age: 20 }, key)).status).toBe(200);
    expect(await server.stop()).toBe(0);

    const target = path.join(work, "restored");
    expect(restoreBackup(dir, target)).toMatchObject({ ok: true });
    expect(await verifyDataDir(target)).toMatchObject({ ok: true, report: { disagreements: [] } });
    const dbs = openDbs(target, undefined);
    try {
      expect(users.map((u) => dbs.nodes.get(itemKey("User", u.id)))).toEqual(users);
      expect(dbs.nodes.getCount(labelRange("User"))).toBe(3);
    } finally {
      await dbs.env.close();
    }
    // The temporary copy was removed as soon as it was opened.
    expect(fs.readdirSync(serverTmp)).toEqual([]);
  }, 120_000);

  it("is refused by a server without an api key", async () => {
    const server = await startStrand();
    servers.push(server);
    const res = await fetch(`${server.url}/backup`);
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 401,
      body: { error: "GET /backup is served only by a server with an api key (strand serve --api-key KEY)", code: "UNAUTHORIZED" },
    });
    expect(await server.stop()).toBe(0);
  }, 60_000);
});

describe("GET /backup, one at a time", () => {
  it("answers 503 SERVER_BUSY with Retry-After while another backup is being sent, and serves again once it is read", async () => {
    const dir = path.join(work, "one-at-a-time");
    const store = GraphStore.open({ path: dir, schema });
    try {
      await store.write((db) => db.addNode("User", { name: "A", city: "Lyon", age: 1 }));
      const app = createApp({ store, schema, queries: [], backup: store, apiKey: "k" });
      const get = () => app.request("/backup", { headers: { "x-api-key": "k" } });
      const first = await get(); // its body, the copy, not read yet
      expect(first.status).toBe(200);
      const second = await get();
      expect([second.status, second.headers.get("retry-after"), await second.json()]).toEqual([
        503,
        "1",
        {
          error: "a backup is being copied or sent already (one at a time: each holds a whole copy of the store until read); retry shortly",
          code: "SERVER_BUSY",
        },
      ]);
      expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(0);
      // The copy's descriptor closes once its body is read: then the next backup is served.
      let third = await get();
      for (let turns = 0; third.status === 503 && turns < 100; turns++) {
        await third.arrayBuffer();
        await new Promise((r) => setImmediate(r));
        third = await get();
      }
      expect(third.status).toBe(200);
      await third.arrayBuffer();
    } finally {
      await store.close();
    }
  });
});
