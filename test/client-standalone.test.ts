// Issue #13 item 2: the generated client is self-contained. client.ts imports only client-types.ts,
// the two type-check alone in a folder with nothing but TypeScript (no @types: the browser libs
// give fetch, as in Node 18+),
// the item shapes there match core/items.ts, and the client answers against a running server.
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type * as Core from "../core/items.js";
import type * as Client from "../generated/client-types.js";
import { StrandClient, StrandQueryError } from "../generated/client.js";
import { REPO_ROOT, startStrand, tempDir } from "./support/server.js";

/** Assignable both ways: the client's shapes are core's (checked by tsc over test/). */
function sameShapes(core: Core.NodeItem, client: Client.NodeItem, coreEdge: Core.EdgeItem, clientEdge: Client.EdgeItem): unknown[] {
  const a: Client.NodeItem = core;
  const b: Core.NodeItem = client;
  const c: Client.EdgeItem = coreEdge;
  const d: Core.EdgeItem = clientEdge;
  const e: Client.GroupCount = {} as Core.GroupCount;
  const f: Core.GroupCount = {} as Client.GroupCount;
  const g: Client.Path = {} as Core.Path;
  const h: Core.AggregateGroup = {} as Client.AggregateGroup;
  return [a, b, c, d, e, f, g, h];
}

describe("the generated client", () => {
  const dir = tempDir("strand-client-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("imports nothing but its own types", () => {
    const client = readFileSync(join(REPO_ROOT, "generated/client.ts"), "utf8");
    const imports = [...client.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(imports)).toEqual(new Set(["./client-types.js"]));
    expect(readFileSync(join(REPO_ROOT, "generated/client-types.ts"), "utf8")).not.toMatch(/\bimport\b/);
    expect(sameShapes).toBeTypeOf("function");
  });

  it("type-checks alone in an empty folder with only TypeScript, for Node and for browsers", () => {
    for (const file of ["client.ts", "client-types.ts"]) copyFileSync(join(REPO_ROOT, "generated", file), join(dir, file));
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, "use.ts"),
      'import { StrandClient, type User } from "./client.js";\nconst db = new StrandClient("http://localhost:6969", { apiKey: "k" });\nconst { user }: { user: User } = await db.addUser({ handle: "a", name: "A", city: "L", age: 1 });\nexport const handle: string | undefined = user.handle;\n',
    );
    for (const lib of ["ES2022,DOM", "ES2022,DOM,DOM.Iterable"]) {
      const tsc = spawnSync(
        process.execPath,
        [
          join(REPO_ROOT, "node_modules/typescript/bin/tsc"),
          "--strict",
          "--noEmit",
          "--target",
          "ES2022",
          "--module",
          "NodeNext",
          "--moduleResolution",
          "NodeNext",
          "--lib",
          lib,
          "use.ts",
          "client.ts",
          "client-types.ts",
        ],
        { cwd: dir, encoding: "utf8" },
      );
      expect({ status: tsc.status, out: tsc.stdout }).toEqual({ status: 0, out: "" });
    }
  });

  it("retries a write whose answer was lost with the same Idempotency-Key: it takes effect once", async () => {
    const s = await startStrand();
    try {
      const sent: { key: string | null; path: string }[] = [];
      let lose = 1;
      // Delivers each request; loses the first write's answer on the way back, as a dropped connection would.
      const lossy: typeof fetch = async (input, init) => {
        const headers = new Headers(init?.headers);
        sent.push({ key: headers.get("idempotency-key"), path: new URL(String(input)).pathname });
        const response = await fetch(input, init);
        if (init?.body !== undefined && headers.has("idempotency-key") && lose-- > 0) throw new TypeError("fetch failed");
        return response;
      };
      const db = new StrandClient(s.url, { fetch: lossy });
      const { user } = await db.addUser({ handle: "ada", name: "Ada", city: "London", age: 36 });
      expect(user).toMatchObject({ label: "User", handle: "ada" });
      expect(await db.countUsers({})).toEqual({ total: 1 });
      expect(sent.map((r) => r.path)).toEqual(["/AddUser", "/AddUser", "/CountUsers"]);
      expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
      expect(sent[1]!.key).toBe(sent[0]!.key);
      expect(sent[2]!.key).toBeNull();
      // Without retries the lost answer is the caller's error; calling again under the same key gets the stored answer: one Bo.
      const once = new StrandClient(s.url, { fetch: lossy, retries: 0, idempotencyKey: () => "fixed-key" });
      lose = 1;
      await expect(once.addUser({ handle: "bo", name: "Bo", city: "Oslo", age: 30 })).rejects.toThrow("fetch failed");
      expect(await once.addUser({ handle: "bo", name: "Bo", city: "Oslo", age: 30 })).toMatchObject({ user: { handle: "bo" } });
      expect(await db.countUsers({})).toEqual({ total: 2 });
    } finally {
      await s.stop();
    }
  });

  it("retries a 503 the server asks to be retried, after its Retry-After", async () => {
    let busy = 2;
    const answers: number[] = [];
    // Answers SERVER_BUSY (Retry-After: 0) twice, then a real answer.
    const busyFirst: typeof fetch = async () => {
      const status = busy-- > 0 ? 503 : 200;
      answers.push(status);
      const body = status === 503 ? { error: "busy", code: "SERVER_BUSY" } : { total: 7 };
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "retry-after": "0" } });
    };
    expect(await new StrandClient("http://unused", { fetch: busyFirst }).countUsers({})).toEqual({ total: 7 });
    expect(answers).toEqual([503, 503, 200]);
    busy = 1;
    const refused = await new StrandClient("http://unused", { fetch: busyFirst, retries: 0 }).countUsers({}).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503, code: "SERVER_BUSY" });
  });

  it("calls a running server and turns its errors into StrandQueryError", async () => {
    const s = await startStrand();
    try {
      const db = new StrandClient(s.url);
      const { user } = await db.addUser({ handle: "ada", name: "Ada", city: "London", age: 36 });
      expect(user).toMatchObject({ label: "User", handle: "ada", city: "London", age: 36 });
      expect(await db.countUsers({})).toEqual({ total: 1 });
      // The bookmark: the write's sequence, sent back as Strand-After (the leader has it: no wait).
      expect(db.lastCommit).toBe(1);
      const refused = await db.addUser({ handle: "ada", name: "Ada", city: "London", age: 36 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StrandQueryError);
      expect(refused).toMatchObject({ status: 409, code: "UNIQUE_VIOLATION" });
    } finally {
      await s.stop();
    }
  }, 60_000);
});
