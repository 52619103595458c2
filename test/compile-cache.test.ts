// The compile cache of `serve` / `mcp --stdio` (cli/project/compile-cache.ts): a project compiled
// before loads from what that compile produced, exactly; any change to the sources or options is
// a miss; a damaged, truncated or foreign entry is a miss (then replaced), never served; failing
// to write the cache never stops loading.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serialize } from "node:v8";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheKey, readCompileCache, writeCompileCache, type CompiledProject } from "../cli/project/compile-cache.js";
import { loadProject, type LoadedProject } from "../cli/project/load-project.js";
import { readProjectSources } from "../cli/project/sources.js";

const SCHEMA = `N::User { UNIQUE INDEX handle: String, age: I64 DEFAULT 0, score: F64 DEFAULT -0.0 }\n`;
const QUERIES = `QUERY AddUser(handle: String) =>
    user <- AddN<User>({handle: handle})
    RETURN user

QUERY Adults(min: I64) =>
    users <- N<User>::WHERE(_::{age}::GTE(min))::{handle, age}
    RETURN users
`;
const OPTIONS = { runtimeImport: "strand/runtime", bm25: true, bm25Origin: undefined, mcp: true };

let work: string;
let project: string;
let cacheDir: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "strand-compile-cache-"));
  project = join(work, "project");
  cacheDir = join(work, "data", "compile-cache");
  writeProject(QUERIES);
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

function writeProject(queries: string): void {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "schema.hx"), SCHEMA);
  writeFileSync(join(project, "queries.hx"), queries);
}

function entries(): string[] {
  try {
    return readdirSync(cacheDir).sort();
  } catch {
    return [];
  }
}

function currentKey(): string {
  return cacheKey(readProjectSources(project), OPTIONS);
}

/** What a served project is made of, functions as their source text. */
function shape(p: LoadedProject): unknown {
  return {
    schema: p.schema,
    models: p.models,
    warnings: p.warnings,
    queries: p.queries.map((q) => ({ ...q, run: q.run.toString() })),
  };
}

describe("compile cache", () => {
  it("a second load of the same project comes from the cache and equals the first, exactly", async () => {
    const cold = await loadProject(project, { cacheDir });
    expect(entries()).toEqual([`${currentKey()}.cache`]);
    const warm = await loadProject(project, { cacheDir });
    expect(shape(warm)).toStrictEqual(shape(cold));
    // -0 survives (JSON would make it 0)
    expect(warm.schema.nodes[0]!.fields[2]!.default).toStrictEqual({ kind: "literal", value: -0 });
    expect(warm.queries.map((q) => q.name)).toEqual(["AddUser", "Adults"]);
  });

  it("serves what the entry of the project's key holds (so a hit skips the compiler)", async () => {
    await loadProject(project, { cacheDir });
    const key = currentKey();
    const entry = readCompileCache(cacheDir, key)!;
    writeCompileCache(cacheDir, key, { ...entry, warnings: "from the cache" });
    expect((await loadProject(project, { cacheDir })).warnings).toBe("from the cache");
  });

  it("a changed source, file name or option is another key, and replaces the old entry", async () => {
    const sources = readProjectSources(project);
    const key = cacheKey(sources, OPTIONS);
    expect(cacheKey(sources, OPTIONS)).toBe(key);
    expect(cacheKey([sources[0]!, { ...sources[1]!, text: `${sources[1]!.text} ` }], OPTIONS)).not.toBe(key);
    expect(cacheKey([sources[0]!, { ...sources[1]!, file: "other.hx" }], OPTIONS)).not.toBe(key);
    expect(cacheKey(sources, { ...OPTIONS, bm25: false })).not.toBe(key);
    expect(cacheKey(sources, { ...OPTIONS, mcp: false })).not.toBe(key);
    // the boundaries between files count: moving text from one file to the next is another key
    const a = { file: "a.hx", text: "xy" };
    const b = { file: "b.hx", text: "z" };
    expect(cacheKey([a, b], OPTIONS)).not.toBe(
      cacheKey(
        [
          { ...a, text: "x" },
          { ...b, text: "yz" },
        ],
        OPTIONS,
      ),
    );

    const first = await loadProject(project, { cacheDir });
    writeProject(QUERIES.replace("QUERY Adults(", "QUERY Grownups("));
    const second = await loadProject(project, { cacheDir });
    expect(first.queries.map((q) => q.name)).toEqual(["AddUser", "Adults"]);
    expect(second.queries.map((q) => q.name)).toEqual(["AddUser", "Grownups"]);
    expect(entries()).toEqual([`${currentKey()}.cache`]);
  });

  it("options the compile depends on are part of the key: bm25 = false is not served a bm25 = true compile", async () => {
    writeProject(`${QUERIES}\nQUERY Find(text: String) =>\n    users <- SearchBM25<User>(text, 5)\n    RETURN users\n`);
    await loadProject(project, { cacheDir });
    await expect(loadProject(project, { cacheDir, bm25: false })).rejects.toThrow("the project has 1 error");
  });

  it("a damaged, truncated, foreign or malformed entry is a miss, and is replaced by a whole one", async () => {
    const cold = await loadProject(project, { cacheDir });
    const key = currentKey();
    const file = join(cacheDir, `${key}.cache`);
    const whole = readFileSync(file);
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 10] ^= 0xff;
    const header = (body: Buffer, k = key): Buffer => {
      return Buffer.concat([Buffer.from(`strand compile cache 1 ${k} ${createHash("sha256").update(body).digest("hex")}\n`), body]);
    };
    const malformed: Array<[string, Buffer]> = [
      ["one bit flipped", damaged],
      ["truncated", whole.subarray(0, whole.length - 100)],
      ["header only", whole.subarray(0, whole.indexOf(0x0a) + 1)],
      ["empty", Buffer.alloc(0)],
      ["no header", whole.subarray(whole.indexOf(0x0a) + 1)],
      ["another key's header", header(whole.subarray(whole.indexOf(0x0a) + 1), "0".repeat(64))],
      ["another format", Buffer.from(whole.toString("latin1").replace("cache 1 ", "cache 0 "), "latin1")],
      ["a whole entry of the wrong shape", header(serialize({ schema: {}, queries: [{ path: 1 }], models: [], warnings: "" }))],
      ["not v8 data", header(Buffer.from("not serialized"))],
    ];
    for (const [what, bytes] of malformed) {
      writeFileSync(file, bytes);
      expect(readCompileCache(cacheDir, key), what).toBeNull();
      const loaded = await loadProject(project, { cacheDir });
      expect(shape(loaded), what).toStrictEqual(shape(cold));
      expect(readFileSync(file).equals(whole), what).toBe(true);
    }
  });

  it("a cache that cannot be written costs a compile, nothing more", async () => {
    const blocked = join(work, "a-file");
    writeFileSync(blocked, "");
    const loaded = await loadProject(project, { cacheDir: join(blocked, "compile-cache") });
    expect(loaded.queries.map((q) => q.name)).toEqual(["AddUser", "Adults"]);
    expect(readdirSync(work).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("leaves no temporary file behind, ignores another writer's, and removes one a dead writer left long ago", async () => {
    mkdirSync(cacheDir, { recursive: true });
    const key = currentKey();
    const live = join(cacheDir, `${key}.99999.1.tmp`);
    const dead = join(cacheDir, `${key}.99998.1.tmp`);
    writeFileSync(live, "half a write");
    writeFileSync(dead, "half a write");
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(dead, old, old);
    await loadProject(project, { cacheDir });
    expect(entries()).toEqual([`${key}.99999.1.tmp`, `${key}.cache`]);
  });

  it("without a cache folder nothing is written", async () => {
    await loadProject(project);
    expect(entries()).toEqual([]);
  });

  it("an entry written for one key is not read under another", () => {
    const compiled: CompiledProject = { schema: { nodes: [], vectors: [], edges: [] }, queries: [], models: [], warnings: "" };
    writeCompileCache(cacheDir, "a".repeat(64), compiled);
    expect(readCompileCache(cacheDir, "a".repeat(64))).toStrictEqual(compiled);
    expect(readCompileCache(cacheDir, "b".repeat(64))).toBeNull();
  });
});
