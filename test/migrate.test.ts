// Schema versions and MIGRATION blocks: compiled from HelixQL, applied when the store opens with
// a newer schema; records are converted (never lost), and a migration that cannot apply refuses
// to open and says why, leaving the data as it was.
import { afterEach, describe, expect, test } from "vitest";
import { compileProject } from "../compiler/index.js";
import type { SchemaDescriptor } from "../runtime/schema.js";
import { GraphStore } from "../runtime/store/graph-store.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const V1 = `
schema::1 {
  N::User { name: String, age: String, INDEX city: String }
  E::Knows { From: User, To: User, Properties: { since: String } }
}
`;

const V2 = `${V1}
schema::2 {
  N::User { fullName: String, age: U32, INDEX city: String, active: Boolean DEFAULT true }
  E::Knows { From: User, To: User, Properties: { since: I64 } }
}
MIGRATION schema::1 => schema::2 {
  N::User => _::{ fullName: name, age: age AS U32, city: _::{city} }
  E::Knows => _::{ since: since AS I64 }
}
`;

function schemaOf(text: string): SchemaDescriptor {
  const r = compileProject([{ file: "s.hx", text }], { checkOnly: true });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r.schema!;
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

async function seed(dir: string, ages: string[]): Promise<string[]> {
  const store = GraphStore.open({ path: dir, schema: schemaOf(V1) });
  const ids = await store.write((db) => {
    const users = ages.map((age, i) => db.addNode("User", { name: `u${i}`, age, city: "Oslo" }));
    db.addEdge("Knows", { since: "2020" }, users[0]!.id, users[1]!.id);
    return users.map((u) => u.id);
  });
  await store.close();
  return ids;
}

describe("compiling versions and migrations", () => {
  test("the current schema is the highest version and carries its migrations as data", () => {
    const s = schemaOf(V2);
    expect(s.version).toBe(2);
    expect(s.migrations).toEqual([
      {
        from: 1,
        to: 2,
        items: [
          {
            kind: "N",
            type: "User",
            fields: [
              { name: "fullName", source: { kind: "field", name: "name" }, cast: null },
              { name: "age", source: { kind: "field", name: "age" }, cast: { kind: "scalar", name: "U32" } },
              { name: "city", source: { kind: "field", name: "city" }, cast: null },
            ],
          },
          { kind: "E", type: "Knows", fields: [{ name: "since", source: { kind: "field", name: "since" }, cast: { kind: "scalar", name: "I64" } }] },
        ],
      },
    ]);
  });

  test.each([
    ["MIGRATION schema::1 => schema::3 { N::User => _::{ fullName: name } }", "E311"],
    ["MIGRATION schema::1 => schema::2 { N::User => _::{ fullNam: name } }", "E110"],
    ["MIGRATION schema::1 => schema::2 { N::User => _::{ fullName: nmae } }", "E110"],
    ["MIGRATION schema::1 => schema::2 { N::Usr => _::{ fullName: name } }", "E101"],
    ["MIGRATION schema::2 => schema::1 { N::User => _::{ name: fullName } }", "E311"],
  ])("%s is rejected with %s", (migration, code) => {
    const text = V2.replace(/MIGRATION[\s\S]*$/, migration);
    const r = compileProject([{ file: "s.hx", text }], { checkOnly: true });
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual([code]);
  });

  test("types outside schema blocks beside versioned ones are rejected (E312)", () => {
    const r = compileProject([{ file: "s.hx", text: `${V1}\nN::Other { x: String }` }], { checkOnly: true });
    expect(r.diagnostics.map((d) => d.code)).toEqual(["E312"]);
  });
});

describe("applying migrations when the store opens", () => {
  test("records are converted, defaults filled, renamed fields moved, indexes rebuilt; reopening is a no-op", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const [a, b] = await seed(dir, ["31", "42"]);
    const store = GraphStore.open({ path: dir, schema: schemaOf(V2) });
    const got = store.read((db) => ({ users: db.nodesByLabel("User"), knows: db.edgesByLabel("Knows"), oslo: db.nodesByIndex("User", "city", "Oslo").length }));
    await store.close();
    expect(got.users).toEqual([
      { id: a, label: "User", fullName: "u0", age: 31, city: "Oslo", active: true },
      { id: b, label: "User", fullName: "u1", age: 42, city: "Oslo", active: true },
    ]);
    expect(got.knows).toEqual([{ id: expect.any(String), label: "Knows", from_node: a, to_node: b, since: 2020 }]);
    expect(got.oslo).toBe(2);
    const again = GraphStore.open({ path: dir, schema: schemaOf(V2) });
    expect(again.read((db) => db.nodesByLabel("User").map((u) => u["age"]))).toEqual([31, 42]);
    await again.close();
  });

  test("a record that cannot be converted refuses the open, names it, and leaves the data at the old version", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const [, bad] = await seed(dir, ["31", "forty"]);
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(V2) })).toThrow(`N::User ${bad} field 'age' (MIGRATION schema::1 => schema::2): cannot convert "forty" to U32`);
    const old = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    expect(old.read((db) => db.nodesByLabel("User").map((u) => [u["name"], u["age"]]))).toEqual([["u0", "31"], ["u1", "forty"]]);
    await old.close();
  });

  test("data newer than the project, or with no migration path, refuses to open", async () => {
    const dir = tempDir();
    dirs.push(dir);
    await seed(dir, ["1", "2"]);
    const v2 = GraphStore.open({ path: dir, schema: schemaOf(V2) });
    await v2.close();
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(V1) })).toThrow("the data is at schema::2, but the project declares schema::1");
    const dir2 = tempDir();
    dirs.push(dir2);
    await seed(dir2, ["1", "2"]);
    const noPath = schemaOf(V2.replace(/MIGRATION[\s\S]*$/, ""));
    expect(() => GraphStore.open({ path: dir2, schema: { ...noPath, migrations: [] } })).toThrow("the data is at schema::1 and the project declares schema::2, but no MIGRATION starts at schema::1");
  });
});
