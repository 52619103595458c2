// Issue #14, fault injection: each fault leaves the server up, answering the request it hit with
// `{error, code}`, and the data directory verifies clean afterwards.
//   - disk full: `strand serve` under a file size limit (RLIMIT_FSIZE, via prlimit; Node ignores
//     SIGXFSZ, so writes past it fail with EFBIG): 507 STORAGE_FULL, reads go on, and once the
//     limit is raised writes succeed again; nothing acknowledged is lost across a restart;
//   - startup with no room: one line and exit 1 (no SIGBUS from LMDB's sparse lock file);
//   - a failed commit for another cause: 503 STORAGE_ERROR naming it;
//   - racing starts on one directory: exactly one wins; a kill -9'd holder blocks nobody;
//   - the big-body stall: a body of too many JSON values is refused while it is still arriving,
//     and /health answers meanwhile.
// The /mcp abuse cases (six-call traversal explosion, 10,000 inits) are pinned in
// test/mcp-guard.test.ts. Seeded: STRAND_CRASH_SEED=<seed> replays the sizes of a run.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StrandError } from "../core/errors.js";
import { storageFailure } from "../runtime/store/commit-failure.js";
import { startServer, type RunningServer } from "../server/server.js";
import { MAX_BODY_VALUES } from "../server/http/json-shape.js";
import { between, crashSeed } from "./support/crash-seed.js";
import { openFixture, queries, schema, type McpFixture } from "./support/mcp-fixture.js";
import { call, CLI, REPO_ROOT, SOCIAL_EXAMPLE, startStrand, tempDir, type StrandServer } from "./support/server.js";
import { removeDir } from "./support/store-fixtures.js";

const work = tempDir("strand-fault-");
/** Child processes compile the example project first: slow on a loaded machine. */
const SLOW = 180_000;
afterAll(() => removeDir(work));

function strand(args: string[], wrapper: string[] = []): { status: number | null; stdout: string; stderr: string } {
  const command = [...wrapper, process.execPath, CLI, ...args];
  const r = spawnSync(command[0]!, command.slice(1), { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const FULL =
  /^the write was not saved: the storage is full \((File too large \(EFBIG\)|Input\/output error; \d+ bytes left \(file size limit\))\); nothing of this request was written, reads still work, and writes succeed again once there is room$/;

const addUser = (server: StrandServer, i: number, nameBytes: number) =>
  call(server, "AddUser", { handle: `u${i}`, name: "n".repeat(nameBytes), city: "Lyon", age: i % 90 });

describe("disk full (RLIMIT_FSIZE)", () => {
  it(
    "is 507 STORAGE_FULL for the write, reads go on, writes succeed once there is room, nothing acknowledged is lost",
    async () => {
      const { random } = crashSeed("test/fault-injection.test.ts");
      const dataDir = join(work, "full");
      const limit = 1024 * 1024 + between(random, 0, 512 * 1024);
      const server = await startStrand({ dataDir, wrapper: ["prlimit", `--fsize=${limit}:unlimited`] });
      const acked: string[] = [];
      try {
        let failed: { status: number; body: unknown } | null = null;
        for (let i = 0; i < 400 && failed === null; i++) {
          const reply = await addUser(server, i, between(random, 2000, 20000));
          if (reply.status === 200) acked.push((reply.body as { user: { id: string } }).user.id);
          else failed = reply;
        }
        expect(failed).toEqual({ status: 507, body: { error: expect.stringMatching(FULL), code: "STORAGE_FULL" } });
        // The process is still there, and so is everything acknowledged.
        for (let i = 0; i < 5; i++) {
          const reply = await addUser(server, 1000 + i, 20000);
          if (reply.status === 200) acked.push((reply.body as { user: { id: string } }).user.id);
          else expect(reply).toEqual({ status: 507, body: { error: expect.stringMatching(FULL), code: "STORAGE_FULL" } });
        }
        expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
        expect(await call(server, "CountUsers", {})).toEqual({ status: 200, body: { total: acked.length } });
        expect((await call(server, "GetUser", { id: acked[0] })).status).toBe(200);
        // Room again: raise the (soft) limit of the running server.
        expect(spawnSync("prlimit", ["--pid", String(server.child.pid), "--fsize=unlimited:unlimited"]).status).toBe(0);
        for (let i = 0; i < 5; i++) {
          const reply = await addUser(server, 2000 + i, 20000);
          expect(reply.status).toBe(200);
          acked.push((reply.body as { user: { id: string } }).user.id);
        }
        expect(server.child.exitCode).toBe(null);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      const verified = strand(["verify", dataDir]);
      expect(verified.stdout).toMatch(new RegExp(`^ok: ${acked.length} nodes, 0 edges`));
      expect(verified.status).toBe(0);
      const again = await startStrand({ dataDir });
      try {
        expect(await call(again, "CountUsers", {})).toEqual({ status: 200, body: { total: acked.length } });
        expect((await call(again, "GetUser", { id: acked.at(-1) })).status).toBe(200);
      } finally {
        await again.stop();
      }
    },
    SLOW,
  );

  it(
    "a store is not opened without room: one line, exit 1",
    () => {
      const dataDir = join(work, "no-room");
      expect(strand(["serve", SOCIAL_EXAMPLE, "--port", "0", "--data", dataDir], ["prlimit", "--fsize=12288:unlimited"])).toEqual({
        status: 1,
        stdout: "",
        stderr: `strand: cannot open the data directory ${dataDir}: no room to open the store: 12 KiB left (file size limit), and Strand needs at least 1 MiB; free some space and start again\n`,
      });
    },
    SLOW,
  );
});

describe("a failed commit", () => {
  const lmdbFailure = (message: string, code: number): Error => {
    const cause = Object.assign(new Error(message), { code });
    const commitError = Promise.reject(cause);
    commitError.catch(() => {});
    return Object.assign(new Error("Commit failed (see commitError for details)"), { commitError });
  };

  it("is STORAGE_FULL for want of room and STORAGE_ERROR naming any other cause", async () => {
    expect((await storageFailure(lmdbFailure("No space left on device: writing page 12", 28), work))?.toJSON()).toEqual({
      error:
        "the write was not saved: the storage is full (No space left on device (ENOSPC)); nothing of this request was written, reads still work, and writes succeed again once there is room",
      code: "STORAGE_FULL",
    });
    expect((await storageFailure(lmdbFailure("Input/output error", 5), work))?.toJSON()).toEqual({
      error:
        "the write was not saved: the store could not commit it (Input/output error); nothing of this request was written, and reads still work",
      code: "STORAGE_ERROR",
    });
    // An lmdb error thrown inside the transaction (a numeric status), not only at commit.
    expect(
      (await storageFailure(Object.assign(new Error("MDB_MAP_FULL: Environment mapsize limit reached"), { code: -30792 }), work))?.code,
    ).toBe("STORAGE_FULL");
    // The query's own errors and bugs are not storage failures.
    expect(await storageFailure(new StrandError("NOT_FOUND", "no such user"), work)).toBe(null);
    expect(await storageFailure(new TypeError("x is undefined"), work)).toBe(null);
  });
});

describe("racing starts on one data directory", () => {
  const contender = (dir: string): ChildProcess =>
    spawn(process.execPath, [join(REPO_ROOT, "test/support/lock-child.mjs"), dir], { stdio: ["pipe", "pipe", "inherit"] });
  const firstLine = (child: ChildProcess): Promise<string> =>
    new Promise((resolve) => {
      let text = "";
      child.stdout!.setEncoding("utf8").on("data", (d: string) => {
        text += d;
        if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
      });
      child.once("exit", () => resolve(text.trim()));
    });
  const exited = (child: ChildProcess): Promise<number | null> =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once("exit", r));

  it(
    "exactly one of ten wins; the others are refused naming it; a kill -9'd holder blocks nobody",
    async () => {
      const dir = join(work, "race");
      const children = Array.from({ length: 10 }, () => contender(dir));
      const lines = await Promise.all(children.map(firstLine));
      const winners = children.filter((_, i) => lines[i]!.startsWith("locked "));
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      expect(lines.filter((line) => line === `locked ${winner.pid}`)).toHaveLength(1);
      for (const [i, child] of children.entries()) {
        if (child === winner) continue;
        expect(lines[i]).toMatch(
          new RegExp(`^refused data directory ${dir} is in use by (process ${winner.pid}|another process); stop that server first$`),
        );
        expect(await exited(child)).toBe(1);
      }
      winner.kill("SIGKILL");
      await exited(winner);
      const next = contender(dir);
      expect(await firstLine(next)).toBe(`locked ${next.pid}`);
      next.stdin!.end();
      expect(await exited(next)).toBe(0);
    },
    SLOW,
  );
});

describe("the big-body stall", () => {
  let f: McpFixture;
  let server: RunningServer;

  beforeAll(async () => {
    f = await openFixture();
    server = await startServer({ store: f.store, schema, queries, port: 0 });
  });

  afterAll(async () => {
    await server.close();
    await f.close();
  });

  /** Sends the head and the first `sent` bytes of a `declared`-byte body, and resolves with the raw reply. */
  function partialPost(path: string, declared: number, sent: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1");
      let text = "";
      socket.setEncoding("utf8").on("data", (d: string) => {
        text += d;
        if (/\r\n\r\n[\s\S]*\}$/.test(text)) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on("error", reject);
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n${sent}`,
      );
    });
  }

  it("a body of too many values is a 413 before it has all arrived, and /health answers meanwhile", async () => {
    const { random } = crashSeed("test/fault-injection.test.ts");
    // Within the default 8 MiB limit, millions of values; only the first part is sent.
    const head = `{"city":[${"{},".repeat(MAX_BODY_VALUES + between(random, 1, 1000))}`;
    const health = fetch(`http://127.0.0.1:${server.port}/health`);
    const reply = await partialPost("/UsersInCity", 7 * 1024 * 1024, head);
    expect(reply.slice(0, reply.indexOf("\r\n"))).toBe("HTTP/1.1 413 Payload Too Large");
    expect(JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4))).toEqual({
      error: `request body holds more than ${MAX_BODY_VALUES} JSON values (member values and array elements); send them in several requests`,
      code: "PAYLOAD_TOO_LARGE",
    });
    expect((await health).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
  });

  it("bodies nested too deep or over the byte limit are refused with {error, code}", async () => {
    const deep = await fetch(`http://127.0.0.1:${server.port}/UsersInCity`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"city":${"[".repeat(1_001)}`,
    });
    expect({ status: deep.status, body: await deep.json() }).toEqual({
      status: 400,
      body: { error: "request body nests arrays and objects more than 1000 levels deep", code: "INVALID_JSON" },
    });
    const big = await fetch(`http://127.0.0.1:${server.port}/UsersInCity`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"city":"${"x".repeat(8 * 1024 * 1024)}"}`,
    });
    expect({ status: big.status, body: await big.json() }).toEqual({
      status: 413,
      body: {
        error:
          "request body exceeds the limit of 8388608 bytes; the limit is set by body_limit under [server] in strand.toml or strand serve --body-limit",
        code: "PAYLOAD_TOO_LARGE",
      },
    });
  });
});
