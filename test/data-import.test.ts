// strand import's checks (runtime/data/import.ts, runtime/load/bulk-loader.ts): a bad record
// names file, line and field and nothing of its file is applied; --skip-bad leaves bad records
// out, writes them to the rejects file and counts them; CSV cells are typed by the schema.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { type ProgressSink, silentProgress } from "../core/progress.js";
import { ImportError, importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { LoadedIds } from "../runtime/load/loaded-ids.js";
import { schemaOf } from "./support/compile-schema.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const schema = schemaOf(`
N::User { UNIQUE INDEX handle: String, age: U32, vip: Boolean, tags: [String], born: Date }
N::Post { title: String }
V::Doc { title: String }
E::Follows { From: User, To: User, Properties: { weight: F64 } }
E::Wrote UNIQUE { From: User, To: Post }
E::Met { From: User, To: User, Properties: { from: Date, to: String } }
`);

const A = "0190a5c1-0000-7000-8000-00000000000a";
const B = "0190a5c1-0000-7000-8000-00000000000b";
const P = "0190a5c1-0000-7000-8000-0000000000f0";
let dir = "";
let store: GraphStore;

beforeEach(() => {
  dir = tempDir("strand-import-");
  store = GraphStore.open({ path: path.join(dir, "data"), schema });
});

afterEach(async () => {
  await store.close();
  removeDir(dir);
});

function file(name: string, lines: readonly (string | object)[]): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n"));
  return p;
}

async function importError(files: string[]): Promise<string> {
  try {
    await importFiles(
      store,
      files.map((f) => importFileOf(f)),
      { skipBad: false, progress: silentProgress },
    );
  } catch (error) {
    if (error instanceof ImportError) return error.message.replace(`${dir}/`, "");
    throw error;
  }
  throw new Error("expected an ImportError");
}

const userA = { kind: "N", label: "User", id: A, handle: "a" };
const userB = { kind: "N", label: "User", id: B, handle: "b" };

test("a bad record stops its file with file, line and field, and nothing of that file is applied", async () => {
  const good = file("good.jsonl", [userA]);
  const bad = file("bad.jsonl", [
    userB,
    { kind: "E", label: "Follows", from: A, to: B },
    "",
    { kind: "N", label: "User", handle: "c", age: -1 },
  ]);
  expect(await importError([good, bad])).toBe(
    "bad.jsonl:4: property 'User.age' must be an integer between 0 and 4294967295 (U32), got -1; nothing of this file was imported",
  );
  // good.jsonl was its own transaction; nothing of bad.jsonl (not B, not the edge) is there.
  expect(store.read((db) => [db.nodesByLabel("User").map((u) => u.id), db.edgesByLabel("Follows")])).toEqual([[A], []]);
  expect(store.verify().disagreements).toEqual([]);
});

test.each([
  [
    "an id already used, by another kind too",
    [userA, { kind: "E", label: "Follows", id: A, from: A, to: A }],
    "2: id: '0190a5c1-0000-7000-8000-00000000000a' is already the id of a User",
  ],
  ["a duplicate id in the file", [userA, { ...userB, id: A }], "2: id: '0190a5c1-0000-7000-8000-00000000000a' is already the id of a User"],
  ["an id that is no UUID", [{ ...userA, id: "42" }], '1: id: expected a UUID, got "42"'],
  [
    "UNIQUE INDEX within the file",
    [userA, { ...userB, handle: "a" }],
    "2: UNIQUE INDEX violated: N::User field 'handle' already has value \"a\"",
  ],
  [
    "an endpoint only later in the file",
    [userA, { kind: "E", label: "Follows", from: A, to: B }, userB],
    "2: to: no User '0190a5c1-0000-7000-8000-00000000000b' (neither stored nor earlier in the input)",
  ],
  [
    "an endpoint of another type",
    [userA, { kind: "N", label: "Post", id: P, title: "t" }, { kind: "E", label: "Follows", from: A, to: P }],
    "3: to: E::Follows must go to a User, but '0190a5c1-0000-7000-8000-0000000000f0' is a Post",
  ],
  ["an edge without from", [{ kind: "E", label: "Follows", to: A }], '1: from: E::Follows needs "from", the id of a User'],
  [
    "E::T UNIQUE twice",
    [
      userA,
      { kind: "N", label: "Post", id: P, title: "t" },
      { kind: "E", label: "Wrote", from: A, to: P },
      { kind: "E", label: "Wrote", from: A, to: P },
    ],
    `4: E::Wrote from ${A} to ${P} already exists (the edge type is UNIQUE)`,
  ],
  ["an unknown field", [{ ...userA, nick: "x" }], "1: unknown property 'nick' for N::User (fields: handle, age, vip, tags, born)"],
  ["an unknown kind", [{ ...userA, kind: "X" }], '1: kind: expected "N", "E" or "V", got "X"'],
  ["a null kind", [{ ...userA, kind: null }], '1: kind: expected "N", "E" or "V", got null'],
  ["no kind", [{ label: "User", handle: "a" }], '1: kind: missing: each record says what it is, "N", "E" or "V"'],
  [
    "a vector of another dimension",
    [
      { kind: "V", label: "Doc", data: [1, 2] },
      { kind: "V", label: "Doc", data: [1, 2, 3] },
    ],
    "2: V::Doc vectors have 2 dimensions, got a vector of 3",
  ],
  ["broken JSON", ['{"kind":"N",'], "1: line: not valid JSON (Expected double-quoted property name in JSON at position 12)"],
])("refused: %s", async (_, lines, message) => {
  expect(await importError([file("in.jsonl", lines as (string | object)[])])).toBe(
    `in.jsonl:${message}; nothing of this file was imported`,
  );
  expect(store.read((db) => db.nodesByLabel("User").length + db.nodesByLabel("Post").length + db.vectorsByLabel("Doc").length)).toBe(0);
});

test("--skip-bad: bad records go to the rejects file, are counted, and the rest is imported", async () => {
  const input = file("in.jsonl", [
    userA,
    { ...userB, age: "old" },
    "nope",
    userB,
    { kind: "E", label: "Follows", from: A, to: B, weight: 2 },
  ]);
  const rejects = path.join(dir, "rejects.jsonl");
  const outcome = await importFiles(store, [importFileOf(input)], { skipBad: true, rejectsPath: rejects, progress: silentProgress });
  expect(outcome).toEqual([
    {
      path: input,
      loaded: 3,
      rejected: 2,
      firstRejected: { line: 2, reason: "property 'User.age' must be an integer between 0 and 4294967295 (U32), got \"old\"" },
    },
  ]);
  expect(
    fs
      .readFileSync(rejects, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l)),
  ).toEqual([
    {
      file: input,
      line: 2,
      error: "property 'User.age' must be an integer between 0 and 4294967295 (U32), got \"old\"",
      text: JSON.stringify({ ...userB, age: "old" }),
    },
    { file: input, line: 3, error: "line: not valid JSON (Unexpected token 'o', \"nope\" is not valid JSON)", text: "nope" },
  ]);
  expect(store.read((db) => db.out([db.nodeById("User", A)], "Follows").map((u) => u.id))).toEqual([B]);
  expect(store.verify().disagreements).toEqual([]);
});

test("--skip-bad with CSV: a rejected row is written as a CSV row again, which imports under the header once fixed", async () => {
  const input = file("User.csv", [
    "id,handle,age,tags",
    `${A},a,1,`,
    `${B},"b, with a comma",young,`,
    `${P},"",-1,"[""y"",""z""]"`,
    `,"c\nover two lines",x,`,
  ]);
  const rejects = path.join(dir, "rejects.jsonl");
  const outcome = await importFiles(store, [importFileOf(input)], { skipBad: true, rejectsPath: rejects, progress: silentProgress });
  expect(outcome).toEqual([
    { path: input, loaded: 1, rejected: 3, firstRejected: { line: 3, reason: 'age: expected a decimal number (U32), got "young"' } },
  ]);
  const rejected = fs
    .readFileSync(rejects, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { line: number; text: string });
  // Quoted as in the file where it matters: "" stays the empty string, not "no value".
  expect(rejected.map(({ line, text }) => ({ line, text }))).toEqual([
    { line: 3, text: `${B},"b, with a comma",young,` },
    { line: 4, text: `${P},"",-1,"[""y"",""z""]"` },
    { line: 5, text: `,"c\nover two lines",x,` },
  ]);
  // The user fixes the ages and imports the rejects under the same header.
  const fixed = file("fixed.csv", ["id,handle,age,tags", ...rejected.map(({ text }) => text.replace(/,(young|-1|x),/, ",2,"))]);
  const again = await importFiles(store, [importFileOf(fixed, "User")], { skipBad: false, progress: silentProgress });
  expect(again).toEqual([{ path: fixed, loaded: 3, rejected: 0, firstRejected: null }]);
  const users = store.read((db) => db.nodesByLabel("User").map(({ id, label, ...fields }) => fields));
  expect(users.sort((x, y) => String(x.handle).localeCompare(String(y.handle)))).toEqual([
    { handle: "", age: 2, tags: ["y", "z"] },
    { handle: "a", age: 1 },
    { handle: "b, with a comma", age: 2 },
    { handle: "c\nover two lines", age: 2 },
  ]);
});

test("edges imported with ids that do not ascend (HelixDB's v4 ids) keep them and their order, and verify stays clean, also after a later write", async () => {
  const late = "f3a8c2d4-1b6e-4c9a-8d2f-5e7b9a1c3d40";
  const early = "0b1c2d3e-4f50-4a6b-9c7d-8e9fa0b1c2d3";
  const input = file("in.jsonl", [
    userA,
    userB,
    { kind: "E", label: "Follows", id: late, from: A, to: B, weight: 1 },
    { kind: "E", label: "Follows", id: early, from: A, to: B, weight: 2 },
  ]);
  await importFiles(store, [importFileOf(input)], { skipBad: false, progress: silentProgress });
  const added = await store.write((db) => db.addEdge("Follows", { weight: 3 }, A, B).id);
  const listed = store.read((db) => db.outE([db.nodeById("User", A)], "Follows").map((e) => e.id));
  expect(listed).toEqual([late, early, added]);
  expect(store.verify().disagreements).toEqual([]);
});

test('CSV: the file names the type, cells are typed by the schema, empty means absent and "" is the empty string', async () => {
  const users = file("User.csv", [
    "id,handle,age,vip,tags,born",
    `${A},"a, the first",31,true,"[""x"",""y""]",2024-05-01T10:00:00Z`,
    `${B},"",,false,,1577836800`,
  ]);
  const follows = file("links.csv", ["from,to,weight", `${A},${B},0.25`, `${B},${A},`]);
  const outcome = await importFiles(store, [importFileOf(users), importFileOf(follows, "Follows")], {
    skipBad: false,
    progress: silentProgress,
  });
  expect(outcome.map((o) => o.loaded)).toEqual([2, 2]);
  expect(store.read((db) => db.nodesByLabel("User"))).toEqual([
    { id: A, label: "User", handle: "a, the first", age: 31, vip: true, tags: ["x", "y"], born: "2024-05-01T10:00:00.000Z" },
    // A Date cell of integer unix seconds, as a JSON Lines number would be.
    { id: B, label: "User", handle: "", vip: false, born: "2020-01-01T00:00:00.000Z" },
  ]);
  const edges = store.read((db) => db.edgesByLabel("Follows").map(({ from_node, to_node, weight }) => ({ from_node, to_node, weight })));
  expect(edges).toEqual([
    { from_node: A, to_node: B, weight: 0.25 },
    { from_node: B, to_node: A, weight: undefined },
  ]);
});

test("CSV: an edge field named like a special column is the column $name, as in JSON Lines", async () => {
  const users = file("User.csv", ["id,handle", `${A},a`, `${B},b`]);
  const met = file("Met.csv", ["from,to,$from,$to", `${A},${B},2020-01-01T00:00:00Z,now`]);
  await importFiles(store, [importFileOf(users), importFileOf(met)], { skipBad: false, progress: silentProgress });
  expect(store.read((db) => db.edgesByLabel("Met").map(({ id: _, ...rest }) => rest))).toEqual([
    { label: "Met", from_node: A, to_node: B, from: "2020-01-01T00:00:00.000Z", to: "now" },
  ]);
  // A type without such a field has no such column.
  expect(await importError([file("Follows.csv", ["from,to,$from", `${A},${B},x`])])).toBe(
    "Follows.csv:1: header: column '$from' is not a field of E::Follows (fields: weight; also id, from, to)",
  );
});

test("CSV refusals: unknown type, a column that is no field, a cell of the wrong type, a ragged row", async () => {
  expect(await importError([file("Nobody.csv", ["id"])])).toBe(
    "Nobody.csv: the schema has no type 'Nobody' (name it with --type, or name the file <Type>.csv); nothing was imported",
  );
  // Checked for every file before the first is loaded: the good file before it is not imported either.
  expect(await importError([file("User.csv", ["handle", "first"]), file("links.csv", ["from,to"])])).toBe(
    "links.csv: the schema has no type 'links' (name it with --type, or name the file <Type>.csv); nothing was imported",
  );
  expect(await importError([file("User.csv", ["handle,nick"])])).toBe(
    "User.csv:1: header: column 'nick' is not a field of N::User (fields: handle, age, vip, tags, born; also id)",
  );
  expect(await importError([file("User.csv", ["handle,age", "a,1", "b,young"])])).toBe(
    'User.csv:3: age: expected a decimal number (U32), got "young"; nothing of this file was imported',
  );
  // Number()'s other forms are not numbers here.
  for (const age of ["0x10", "0b101", "1_000", "Infinity", " "]) {
    expect(await importError([file("User.csv", ["handle,age", `a,${age}`])])).toBe(
      `User.csv:2: age: expected a decimal number (U32), got ${JSON.stringify(age)}; nothing of this file was imported`,
    );
  }
  expect(await importError([file("User.csv", ["handle,vip", "a,yes"])])).toBe(
    'User.csv:2: vip: expected true or false, got "yes"; nothing of this file was imported',
  );
  expect(await importError([file("User.csv", ["handle,age", "a,1,2"])])).toBe(
    "User.csv:2: line: 3 cells, but the header has 2 columns; nothing of this file was imported",
  );
  expect(await importError([file("User.csv", ["handle", 'a"b'])])).toBe(
    "User.csv:2: a quote inside an unquoted field (quote the whole field and double the quote); nothing of this file was imported",
  );
  expect(store.read((db) => db.nodesByLabel("User"))).toEqual([]);
});

test("a node's many new edges: one list, full chunks then the tail, in input order, and verify is clean", async () => {
  const others = Array.from({ length: 100 }, (_, i) => `0190a5c1-0000-7000-8000-${String(i).padStart(12, "0")}`);
  const lines: object[] = [userA, ...others.map((id, i) => ({ kind: "N", label: "User", id, handle: `h${i}` }))];
  for (const id of others) lines.push({ kind: "E", label: "Follows", from: A, to: id });
  await importFiles(store, [importFileOf(file("in.jsonl", lines))], { skipBad: false, progress: silentProgress });
  expect(store.read((db) => db.out([db.nodeById("User", A)], "Follows").map((u) => u.id))).toEqual(others);
  expect(store.read((db) => db.in([db.nodeById("User", others[7]!)], "Follows").map((u) => u.id))).toEqual([A]);
  expect(store.verify().disagreements).toEqual([]);
});

test("ids and endpoints are checked against records stored before the import and loaded by its earlier files", async () => {
  // A User and a Post stored by a query before the import: the import's id table does not hold
  // them, so the loader must ask the store.
  const [stored, post] = await store.write((db) => [db.addNode("User", { handle: "s" }).id, db.addNode("Post", { title: "t" }).id]);
  const nodes = file("nodes.jsonl", [userA]);
  const edges = file("edges.jsonl", [
    { kind: "E", label: "Follows", id: B, from: A.toUpperCase(), to: stored },
    { kind: "E", label: "Follows", from: stored, to: A },
  ]);
  const outcomes = await importFiles(store, [importFileOf(nodes), importFileOf(edges)], { skipBad: false, progress: silentProgress });
  expect(outcomes.map((o) => o.loaded)).toEqual([1, 2]);
  expect(store.read((db) => db.edgesByLabel("Follows").map((e) => [e.from_node, e.to_node]))).toEqual([
    [A, stored],
    [stored, A],
  ]);
  const refusals: [object, string][] = [
    [{ ...userB, id: stored!.toUpperCase() }, `id: '${stored}' is already the id of a User`],
    [{ ...userB, id: B }, `id: '${B}' is already the id of an edge Follows`],
    [{ ...userB, id: A }, `id: '${A}' is already the id of a User`],
    [{ kind: "E", label: "Follows", from: A, to: post }, `to: E::Follows must go to a User, but '${post}' is a Post`],
    [{ kind: "E", label: "Follows", from: B, to: A }, `from: no User '${B}' (neither stored nor earlier in the input)`],
    [{ kind: "E", label: "Follows", from: A, to: "not-an-id" }, 'to: expected a UUID, got "not-an-id"'],
  ];
  for (const [line, message] of refusals) {
    expect(await importError([file("more.jsonl", [line])])).toBe(`more.jsonl:1: ${message}; nothing of this file was imported`);
  }
  expect(store.verify().disagreements).toEqual([]);
});

test("one import of several files: later files find the records of earlier ones, duplicates across files are refused", async () => {
  const first = file("first.jsonl", [userA, { kind: "N", label: "Post", id: P, title: "t" }]);
  const second = file("second.jsonl", [
    userB,
    { kind: "E", label: "Wrote", from: B, to: P },
    { kind: "E", label: "Follows", from: B, to: A },
  ]);
  const third = file("third.jsonl", [{ ...userB, id: P.toUpperCase(), handle: "c" }]);
  expect(await importError([first, second, third])).toBe(
    `third.jsonl:1: id: '${P}' is already the id of a Post; nothing of this file was imported`,
  );
  expect(store.read((db) => [db.nodesByLabel("User").length, db.edgesByLabel("Wrote").length, db.edgesByLabel("Follows").length])).toEqual([
    2, 1, 1,
  ]);
  expect(store.verify().disagreements).toEqual([]);
});

test("an import past the id table's limit asks the store: duplicates and endpoints are still exact", async () => {
  const loaded = new LoadedIds(1);
  const load = (records: object[]) => store.load((loader) => records.map((r) => loader.load({ props: {}, ...r } as never).id), loaded);
  expect(
    await load([
      { kind: "N", label: "User", id: A, props: { handle: "a" } },
      { kind: "N", label: "User", id: B, props: { handle: "b" } },
    ]),
  ).toEqual([A, B]);
  expect(loaded.complete).toBe(false);
  // B is not in the table: only the store knows it.
  await expect(load([{ kind: "N", label: "Post", id: B, props: { title: "t" } }])).rejects.toThrow(
    `id: '${B}' is already the id of a User`,
  );
  expect(await load([{ kind: "E", label: "Follows", from: B, to: A }])).toHaveLength(1);
  await expect(load([{ kind: "E", label: "Follows", from: P, to: A }])).rejects.toThrow(`from: no User '${P}'`);
  // An edge id given twice in one load, the first still in the writer's held edge_ends block.
  const E = "f0000000-0000-7000-8000-0000000000e1"; // after every id stored: its entry is held in the last block
  await expect(
    load([
      { kind: "E", label: "Follows", id: E, from: A, to: B },
      { kind: "E", label: "Follows", id: E, from: B, to: A },
    ]),
  ).rejects.toThrow(`id: '${E}' is already the id of an edge Follows`);
  expect(store.read((db) => db.edgesByLabel("Follows").length)).toBe(1);
  expect(store.verify().disagreements).toEqual([]);
});

test("a line whose bytes are not valid UTF-8 is refused (or left out with --skip-bad); a U+FFFD the file holds is a character like any", async () => {
  const input = path.join(dir, "utf8.jsonl");
  fs.writeFileSync(
    input,
    Buffer.concat([
      Buffer.from(`${JSON.stringify({ ...userA, handle: "a\uFFFDb" })}\n{"kind":"N","label":"Post","title":"bad`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`utf"}\n${JSON.stringify(userB)}\n`),
    ]),
  );
  expect(await importError([input])).toBe(
    "utf8.jsonl:2: line: not valid UTF-8 (the file's bytes there are no UTF-8 character); nothing of this file was imported",
  );
  const outcome = await importFiles(store, [importFileOf(input)], { skipBad: true, progress: silentProgress });
  expect(outcome).toEqual([
    {
      path: input,
      loaded: 2,
      rejected: 1,
      firstRejected: { line: 2, reason: "line: not valid UTF-8 (the file's bytes there are no UTF-8 character)" },
    },
  ]);
  expect(store.read((db) => db.nodesByLabel("User").map((u) => u.handle))).toEqual(["a\uFFFDb", "b"]);
  expect(store.read((db) => db.nodesByLabel("Post"))).toEqual([]);
});

test("CSV: bytes that are not valid UTF-8 refuse the file, naming their line (a row cannot be told apart to leave out)", async () => {
  const input = path.join(dir, "User.csv");
  fs.writeFileSync(input, Buffer.concat([Buffer.from("handle,age\nok,1\nbad"), Buffer.from([0xff, 0xfe]), Buffer.from(",2\n")]));
  expect(await importError([input])).toBe(
    "User.csv:3: not valid UTF-8 (bytes of this line, which starts at byte 16 of the file, are no UTF-8 character); nothing of this file was imported",
  );
  // A byte order mark and U+FFFD written as UTF-8 are fine.
  fs.writeFileSync(input, `\uFEFFhandle,age\na\uFFFDb,1\n`);
  await importFiles(store, [importFileOf(input)], { skipBad: false, progress: silentProgress });
  expect(store.read((db) => db.nodesByLabel("User").map((u) => u.handle))).toEqual(["a\uFFFDb"]);
});

test("progress: reading the file in bytes, then the adjacency lists and the keyword index's terms, each finished once", async () => {
  const events: string[] = [];
  const progress: ProgressSink = {
    start(label, unit, total) {
      let done = 0;
      return {
        advance: (n) => {
          done += n;
        },
        finish: () => events.push(`${label}: ${done}/${total} ${unit}`),
      };
    },
  };
  const input = file("p.jsonl", [
    userA,
    userB,
    { kind: "N", label: "Post", id: P, title: "one two two" },
    { kind: "E", label: "Follows", from: A, to: B },
    { kind: "E", label: "Follows", from: B, to: A },
    { kind: "E", label: "Wrote", from: A, to: P },
  ]);
  await importFiles(store, [importFileOf(input)], { skipBad: false, progress });
  const bytes = fs.statSync(input).size;
  expect(events).toEqual([
    `import p.jsonl: ${bytes}/${bytes} bytes`,
    "import p.jsonl: adjacency lists: 6/6 lists",
    "import p.jsonl: keyword index: 4/4 terms",
  ]);
});
