// `strand serve --watch` (cli/commands/serve-watch.ts, server/reloadable-app.ts) on a copy of the
// social example, under a steady load of reads and writes from four lanes: a new query is served
// after a save, a project that does not compile keeps the last good version serving with its
// diagnostics printed, a schema change reopens the store with the new schema (its migrations
// applied), and a schema the data does not take is refused with the store reopened as it was.
// Not one request of the load fails.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lineAfter as lineAfterOutput, SOCIAL_EXAMPLE, type StrandServer, startStrand, tempDir } from "./support/server.js";

describe("strand serve --watch under load", () => {
  let dir: string;
  let server: StrandServer;
  let stopLoad = false;
  let load: Promise<void>;
  let served = 0;
  const failures: string[] = [];

  const post = async (name: string, body: unknown): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.url}/${name}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  const lineAfter = (action: () => unknown, expected: string): Promise<string> => lineAfterOutput(server, action, expected);
  /** Resolves once the load has answered `n` more requests (so it ran across what came before). */
  const moreServed = async (n: number): Promise<void> => {
    const target = served + n;
    while (served < target) await new Promise<void>((resolve) => setImmediate(resolve));
  };

  const lane = async (id: number): Promise<void> => {
    for (let i = 0; !stopLoad; i++) {
      const reply =
        i % 3 === 0
          ? await post("AddUser", { handle: `lane${id}-${i}`, name: "L", city: i % 2 === 0 ? "Oslo" : `City${id}-${i}`, age: 20 })
          : await post("UsersInCity", { city: "Oslo" });
      if (reply.status !== 200) failures.push(`${reply.status} ${JSON.stringify(reply.body)}`);
      served++;
    }
  };

  beforeAll(async () => {
    dir = tempDir("strand-watch-");
    mkdirSync(join(dir, "project"));
    for (const file of ["schema.hx", "queries.hx"]) copyFileSync(join(SOCIAL_EXAMPLE, file), join(dir, "project", file));
    server = await startStrand({ project: join(dir, "project"), dataDir: join(dir, "data"), extraArgs: ["--watch"] });
    load = Promise.all([0, 1, 2, 3].map(lane)).then(() => {});
    await moreServed(20);
  });

  afterAll(async () => {
    stopLoad = true;
    await load;
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const queries = (): string => join(dir, "project", "queries.hx");
  const schema = (): string => join(dir, "project", "schema.hx");

  it("serves a query added to a file, and keeps serving when the project stops compiling", async () => {
    const line = await lineAfter(
      () =>
        writeFileSync(queries(), `${readFileSync(queries(), "utf8")}\nQUERY HowManyUsers() =>\n    n <- N<User>::COUNT\n    RETURN n\n`),
      "strand: reloaded",
    );
    expect(line).toMatch(/^strand: reloaded \(queries\.hx\): queries \+HowManyUsers; schema unchanged in \d+ ms$/);
    const count = await post("HowManyUsers", {});
    expect(count.status).toBe(200);
    await moreServed(20);

    const good = readFileSync(queries(), "utf8");
    const failed = await lineAfter(
      () => writeFileSync(queries(), `${good}\nQUERY Broken() =>\n    u <- N<Usr>\n    RETURN u\n`),
      "strand: reload failed",
    );
    expect(failed).toBe("strand: reload failed (queries.hx): the project has 1 error; still serving the last good version");
    expect(server.output()).toContain("error E101");
    expect((await post("HowManyUsers", {})).status).toBe(200);
    expect((await post("Broken", {})).status).toBe(404);
    await lineAfter(() => writeFileSync(queries(), good), "strand: reloaded (queries.hx): queries unchanged");
    // A setting a reload does not apply is named as the file names it.
    const settings = await lineAfter(
      () => writeFileSync(join(dir, "project", "strand.toml"), '[server]\nbody_limit = "1MiB"\n'),
      "strand: reloaded",
    );
    expect(settings).toMatch(
      /^strand: reloaded \(strand\.toml\): queries unchanged; schema unchanged; \[server\] body_limit changed: they apply at the next start in \d+ ms$/,
    );
    await moreServed(20);
    expect(failures).toEqual([]);
  });

  it("reopens the store with a changed schema, and refuses one the data does not take", async () => {
    const before = readFileSync(schema(), "utf8");
    const line = await lineAfter(() => {
      writeFileSync(schema(), before.replace("    age: U32,\n", '    age: U32,\n    mood: String DEFAULT "calm",\n'));
      writeFileSync(
        queries(),
        `${readFileSync(queries(), "utf8")}\nQUERY Moods(handle: String) =>\n    u <- N<User>({handle: handle})::{mood}\n    RETURN u\n`,
      );
    }, "strand: reloaded");
    expect(line).toMatch(
      /^strand: reloaded \((queries\.hx, )?schema\.hx\): queries (\+Moods )?.*schema changed, store reopened in \d+ ms$/,
    );
    if (!line.includes("+Moods")) await lineAfter(() => {}, "queries +Moods");
    expect(await post("Moods", { handle: "lane0-0" })).toEqual({ status: 200, body: { u: { mood: "calm" } } });
    await moreServed(20);

    const withMood = readFileSync(schema(), "utf8");
    const refused = await lineAfter(
      () => writeFileSync(schema(), withMood.replace("    INDEX city: String,", "    UNIQUE INDEX city: String,")),
      "strand: reload failed",
    );
    expect(refused).toMatch(
      /^strand: reload failed \(schema\.hx\): the store does not take the new schema: .*city.*; still serving the last good version$/,
    );
    expect(await post("Moods", { handle: "lane0-0" })).toEqual({ status: 200, body: { u: { mood: "calm" } } });
    await moreServed(20);
    expect(failures).toEqual([]);
    expect(served).toBeGreaterThan(100);
  });
});
