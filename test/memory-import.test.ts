// `strand memory import FILE --data DIR`: a reference server's memory.jsonl into the memory, in
// one transaction. A good file (written by the reference itself) gives the reference's graph; a
// second import changes nothing; a bad line is named and nothing is written, not even the
// directory; a name twice in the file (the reference's own bug can write one) becomes one entity.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startReference, startStrandMemory } from "./support/memory.js";
import { CLI, REPO_ROOT, tempDir } from "./support/server.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function work(): string {
  const dir = tempDir("strand-memory-import-");
  dirs.push(dir);
  return dir;
}

const strandImport = (file: string, data: string) =>
  spawnSync(process.execPath, [CLI, "memory", "import", file, "--data", data], { cwd: REPO_ROOT, encoding: "utf8" });

async function readGraph(data: string): Promise<unknown> {
  const memory = await startStrandMemory(data);
  try {
    return await memory.call("read_graph", {});
  } finally {
    await memory.close();
  }
}

describe("strand memory import", () => {
  it("brings the reference server's file over: read_graph answers as the reference's does, and importing again changes nothing", async () => {
    const dir = work();
    const file = join(dir, "memory.jsonl");
    const reference = await startReference(file);
    let want: unknown;
    try {
      await reference.call("create_entities", {
        entities: [
          { name: "Ada", entityType: "person", observations: ["writes programs", "born 1815"] },
          { name: "Analytical Engine", entityType: "machine", observations: [] },
        ],
      });
      await reference.call("create_relations", {
        relations: [
          { from: "Ada", to: "Analytical Engine", relationType: "programs" },
          { from: "Babbage", to: "Analytical Engine", relationType: "designs" },
        ],
      });
      await reference.call("create_entities", { entities: [{ name: "Babbage", entityType: "person", observations: ["mathematician"] }] });
      want = await reference.call("read_graph", {});
    } finally {
      await reference.close();
    }
    const data = join(dir, "data");
    const first = strandImport(file, data);
    expect({ status: first.status, stdout: first.stdout }).toEqual({
      status: 0,
      stdout: `imported ${file} into ${data}: 3 entities (3 new, 0 observations merged into existing ones), 2 relations (2 new)\n`,
    });
    expect(await readGraph(data)).toEqual(want);
    const again = strandImport(file, data);
    expect(again.stdout).toBe(
      `imported ${file} into ${data}: 3 entities (0 new, 0 observations merged into existing ones), 2 relations (0 new)\n`,
    );
    expect(await readGraph(data)).toEqual(want);
  });

  it("merges a name the file holds twice into one entity", async () => {
    const dir = work();
    const file = join(dir, "memory.jsonl");
    writeFileSync(
      file,
      [
        { type: "entity", name: "Ada", entityType: "person", observations: ["a", "b"] },
        { type: "entity", name: "Ada", entityType: "person", observations: ["b", "c"] },
        { type: "relation", from: "Ada", to: "Ada", relationType: "is" },
        { type: "relation", from: "Ada", to: "Ada", relationType: "is" },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    );
    const data = join(dir, "data");
    expect(strandImport(file, data).stdout).toBe(
      `imported ${file} into ${data}: 2 entities (1 new, 1 observations merged into existing ones), 2 relations (1 new)\n`,
    );
    expect(((await readGraph(data)) as { structuredContent: unknown }).structuredContent).toEqual({
      entities: [{ name: "Ada", entityType: "person", observations: ["a", "b", "c"] }],
      relations: [{ from: "Ada", to: "Ada", relationType: "is" }],
    });
  });

  it("names the bad line and writes nothing", () => {
    const dir = work();
    const data = join(dir, "data");
    const cases: [string, string][] = [
      ['{"type":"entity","name":"A","entityType":"t","observations":[]}\n\n{"type":"entity","name":"B"', "3: not JSON"],
      ['{"type":"entity","name":"A","entityType":"t","observations":[1]}', '1: entity: "observations" must be an array of strings'],
      ['{"type":"relation","from":"A","relationType":"r"}', '1: relation: "to" must be a string'],
      [
        '{"type":"entity","name":"A","entityType":"t","observations":[]}\n{"type":"note","text":"x"}',
        '2: "type" must be "entity" or "relation", got "note"',
      ],
      ["[1, 2]", '1: expected an object with "type": "entity" or "relation"'],
    ];
    for (const [text, problem] of cases) {
      const file = join(dir, "bad.jsonl");
      writeFileSync(file, text);
      const run = strandImport(file, data);
      expect(run.status, text).toBe(1);
      expect(run.stderr, text).toMatch(
        new RegExp(
          `^strand: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${problem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*; nothing imported\n$`,
        ),
      );
      expect(existsSync(data), text).toBe(false);
    }
  });

  it("refuses a data directory that another process holds", async () => {
    const dir = work();
    const data = join(dir, "data");
    const file = join(dir, "memory.jsonl");
    writeFileSync(file, '{"type":"entity","name":"A","entityType":"t","observations":[]}\n');
    const memory = await startStrandMemory(data);
    try {
      const run = strandImport(file, data);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`cannot open the memory data directory ${data}: data directory ${data} is in use by process`);
      expect((await memory.call("read_graph", {})).structuredContent).toEqual({ entities: [], relations: [] });
    } finally {
      await memory.close();
    }
    expect(readFileSync(file, "utf8")).toContain('"A"');
  });
});
