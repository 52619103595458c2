// `strand serve` with its compile cache (issue 11): a restart on the same data directory loads the
// project from `<data>/compile-cache/` without loading TypeScript, answers exactly as the first
// start did, and a project edited between starts is compiled again, never served stale.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT, SOCIAL_EXAMPLE, startStrand, tempDir, type StrandServer } from "./support/server.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fresh(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** Status, content type and body text, byte for byte. */
async function raw(server: StrandServer, query: string, params: unknown): Promise<string> {
  const res = await fetch(`${server.url}/${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return `${res.status} ${res.headers.get("content-type")} ${await res.text()}`;
}

/** The same calls on each start: reads of what the first start wrote, errors, and a query list. */
async function answers(server: StrandServer, ids: { ada: string; bob: string }): Promise<string[]> {
  return [
    await raw(server, "GetUser", { id: ids.ada }),
    await raw(server, "UserByHandle", { handle: "bob" }),
    await raw(server, "Following", { id: ids.ada }),
    await raw(server, "CountByCity", {}),
    await raw(server, "FewestHops", { from: ids.ada, to: ids.bob }),
    await raw(server, "GetUser", { id: "not an id" }),
    await raw(server, "AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 }),
    await raw(server, "ListUsers", { start: 0, end: "ten" }),
    await raw(server, "NoSuchQuery", {}),
    `${(await fetch(`${server.url}/introspect`)).status} ${await (await fetch(`${server.url}/introspect`)).text()}`,
  ];
}

describe("serve's compile cache", () => {
  it("a restart answers byte for byte as the first start did, from the cache", async () => {
    const data = fresh("strand-serve-cache-");
    const first = await startStrand({ dataDir: data });
    let before: string[];
    let ids: { ada: string; bob: string };
    try {
      const add = async (handle: string): Promise<string> => {
        const res = await fetch(`${first.url}/AddUser`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ handle, name: handle, city: "Paris", age: 30 }),
        });
        return ((await res.json()) as { user: { id: string } }).user.id;
      };
      ids = { ada: await add("ada"), bob: await add("bob") };
      const follow = await fetch(`${first.url}/Follow`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ from: ids.ada, to: ids.bob, weight: 2 }),
      });
      expect(follow.status).toBe(200);
      before = await answers(first, ids);
    } finally {
      await first.stop();
    }
    const cached = readdirSync(join(data, "compile-cache"));
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(/^[0-9a-f]{64}\.cache$/);
    const second = await startStrand({ dataDir: data });
    try {
      expect(await answers(second, ids)).toEqual(before);
    } finally {
      await second.stop();
    }
    expect(readdirSync(join(data, "compile-cache"))).toEqual(cached);
  }, 120_000);

  it("a project loads without TypeScript, cold (compiled to JavaScript) and cached", () => {
    const cacheDir = join(fresh("strand-serve-cache-"), "compile-cache");
    const probe = `
      import { createRequire } from "node:module";
      const { loadProject } = await import(${JSON.stringify(join(REPO_ROOT, "dist/cli/project/load-project.js"))});
      const project = await loadProject(${JSON.stringify(SOCIAL_EXAMPLE)}, { cacheDir: ${JSON.stringify(cacheDir)} });
      const typescript = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes("ts-morph"));
      process.stdout.write(JSON.stringify({ queries: project.queries.length, typescriptLoaded: typescript.length > 0 }));
    `;
    const run = (): unknown => JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }));
    expect(run()).toEqual({ queries: 22, typescriptLoaded: false });
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(run()).toEqual({ queries: 22, typescriptLoaded: false });
  }, 120_000);

  it("starts racing on one cold cache all load the project and leave one whole entry", async () => {
    const cacheDir = join(fresh("strand-serve-cache-"), "compile-cache");
    const probe = `
      const { loadProject } = await import(${JSON.stringify(join(REPO_ROOT, "dist/cli/project/load-project.js"))});
      const project = await loadProject(${JSON.stringify(SOCIAL_EXAMPLE)}, { cacheDir: ${JSON.stringify(cacheDir)} });
      process.stdout.write(JSON.stringify(project.queries.map((q) => [q.name, q.run.toString().length])));
    `;
    const run = promisify(execFile);
    const outputs = await Promise.all(
      [1, 2, 3].map(async () => (await run(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" })).stdout),
    );
    const expected = outputs[0]!;
    expect(JSON.parse(expected)).toHaveLength(22);
    expect(outputs).toEqual([expected, expected, expected]);
    const files = readdirSync(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\.cache$/);
    const warm = (await run(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" })).stdout;
    expect(warm).toBe(expected);
  }, 180_000);

  it("a project edited between starts is compiled again", async () => {
    const project = fresh("strand-serve-cache-project-");
    cpSync(SOCIAL_EXAMPLE, project, { recursive: true });
    const data = fresh("strand-serve-cache-");
    const first = await startStrand({ project, dataDir: data });
    expect(await raw(first, "CountUsers", {})).toBe('200 application/json {"total":0}');
    await first.stop();
    const queries = join(project, "queries.hx");
    writeFileSync(
      queries,
      readFileSync(queries, "utf8").replace(
        "total <- N<User>::COUNT\n    RETURN total",
        "total <- N<User>::COUNT\n    RETURN {users: total}",
      ),
    );
    const second = await startStrand({ project, dataDir: data });
    try {
      expect(await raw(second, "CountUsers", {})).toBe('200 application/json {"users":0}');
    } finally {
      await second.stop();
    }
    expect(readdirSync(join(data, "compile-cache"))).toHaveLength(1);
  }, 120_000);
});
