// Schema versions and MIGRATION blocks: compiled from HelixQL, applied when the store opens with
// a newer schema; records are converted (never lost), and a migration that cannot apply refuses
// to open and says why, leaving the data as it was.
import { afterEach, describe, expect, test } from "vitest";
import { compileProject } from "../compiler/index.js";
import { GraphStore } from "../runtime/graph-store.js";
import { MigrationError } from "../runtime/migrate/migrate.js";
import { schemaOf } from "./support/compile-schema.js";
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
            declared: ["fullName", "age", "city", "active"],
          },
          {
            kind: "E",
            type: "Knows",
            fields: [{ name: "since", source: { kind: "field", name: "since" }, cast: { kind: "scalar", name: "I64" } }],
            declared: ["since"],
          },
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
    const got = store.read((db) => ({
      users: db.nodesByLabel("User"),
      knows: db.edgesByLabel("Knows"),
      oslo: db.nodesByIndex("User", "city", "Oslo").length,
    }));
    await store.close();
    expect(got.users).toEqual([
      { id: a, label: "User", fullName: "u0", age: 31, city: "Oslo", active: true },
      { id: b, label: "User", fullName: "u1", age: 42, city: "Oslo", active: true },
    ]);
    expect(got.knows).toEqual([{ id: expect.any(String), label: "Knows", from_node: a, to_node: b, since: 2020 }]);
    expect(got.oslo).toBe(2);
    const again = GraphStore.open({ path: dir, schema: schemaOf(V2) });
    expect(again.read((db) => db.nodesByLabel("User").map((u) => u.age))).toEqual([31, 42]);
    await again.close();
  });

  test("a record that cannot be converted refuses the open, names it, and leaves the data at the old version", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const [, bad] = await seed(dir, ["31", "forty"]);
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(V2) })).toThrow(
      `N::User ${bad} field 'age' (MIGRATION schema::1 => schema::2): cannot convert "forty" to U32`,
    );
    const old = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    expect(old.read((db) => db.nodesByLabel("User").map((u) => [u.name, u.age]))).toEqual([
      ["u0", "31"],
      ["u1", "forty"],
    ]);
    await old.close();
  });

  test("data newer than the project, or with no migration path, refuses to open", async () => {
    const dir = tempDir();
    dirs.push(dir);
    await seed(dir, ["1", "2"]);
    const v2 = GraphStore.open({ path: dir, schema: schemaOf(V2) });
    await v2.close();
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(V1) })).toThrow(
      "the data is at schema::2, but the project declares schema::1",
    );
    const dir2 = tempDir();
    dirs.push(dir2);
    await seed(dir2, ["1", "2"]);
    const noPath = schemaOf(V2.replace(/MIGRATION[\s\S]*$/, ""));
    expect(() => GraphStore.open({ path: dir2, schema: { ...noPath, migrations: [] } })).toThrow(
      "the data is at schema::1 and the project declares schema::2, but no MIGRATION starts at schema::1",
    );
  });
});

describe("AS never rounds; ROUND, FLOOR and CEIL in a mapping do (audit D10)", () => {
  const P1 = "schema::1 { N::Item { price: F64, code: String } }";
  const p2 = (mapping: string): string =>
    `${P1}\nschema::2 { N::Item { price: I64, code: String } }\nMIGRATION schema::1 => schema::2 { N::Item => _::{ ${mapping} } }`;

  async function seedItems(dir: string, prices: number[]): Promise<string[]> {
    const store = GraphStore.open({ path: dir, schema: schemaOf(P1) });
    const ids = await store.write((db) => prices.map((price) => db.addNode("Item", { price, code: String(price) }).id));
    await store.close();
    return ids;
  }

  test("AS I64 on 9.99 refuses the open with what to write instead", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const [, bad] = await seedItems(dir, [10, 9.99]);
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(p2("price: price AS I64")) })).toThrow(
      new MigrationError(
        `N::Item ${bad} field 'price' (MIGRATION schema::1 => schema::2): 9.99 is not an integer: AS I64 converts only values that are exactly an integer of I64, it never rounds; ` +
          "round it in the mapping with ROUND(price), FLOOR(price) or CEIL(price) (e.g. price: ROUND(price)), or keep the field a float (F64)",
      ),
    );
    const old = GraphStore.open({ path: dir, schema: schemaOf(P1) });
    expect(old.read((db) => db.nodesByLabel("Item").map((i) => i.price))).toEqual([10, 9.99]);
    await old.close();
  });

  test.each([
    ["price: ROUND(price)", [3, -3, 10, 2]],
    ["price: FLOOR(price)", [2, -3, 9, 2]],
    ["price: CEIL(price) AS I64", [3, -2, 10, 2]],
    ["price: ROUND(code)", [3, -3, 10, 2]],
  ])("%s", async (mapping, expected) => {
    const dir = tempDir();
    dirs.push(dir);
    await seedItems(dir, [2.5, -2.5, 9.99, 2]);
    const store = GraphStore.open({ path: dir, schema: schemaOf(p2(mapping)) });
    expect(store.read((db) => db.nodesByLabel("Item").map((i) => i.price))).toEqual(expected);
    await store.close();
  });

  test.each([
    ["price: ROUND(price, 2)", "E209", "ROUND takes one field of the old type"],
    ["price: ROUND(prise)", "E110", "unknown field 'prise' on Item in the old schema"],
    ["code: ROUND(price)", "E214", "ROUND rounds a number into a number field, but the new field 'code' is String"],
    ["price: CEIL(_::{price}) AS String", "E214", "CEIL rounds a number into a number field, but the new field 'price' is String"],
    ["price: SQRT(price)", "E209", "a migration maps a field to a field of the old type, ROUND/FLOOR/CEIL of one, or a literal"],
  ])("%s is rejected with %s", (mapping, code, message) => {
    const r = compileProject([{ file: "s.hx", text: p2(mapping) }], { checkOnly: true });
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.message])).toEqual([[code, message]]);
  });
});
