// `__proto__` as a name (audit 5, D6): `{__proto__: v}` sets an object's prototype instead of a
// member, so a field of that name was silently lost. The compiler reserves it for fields, object
// members and parameters (E104, corpus: invalid/schema.hx, invalid/names.hx); where it may still
// be a key (projection and RETURN keys) the generated code defines an own member; the runtime
// builds parameters and object values with own members and refuses a schema that would store it.
// `constructor` and `prototype` are ordinary names.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { compileProject } from "../compiler/index.js";
import type { SchemaDescriptor, ValueType } from "../core/schema.js";
import { validateParams } from "../server/http/params.js";
import { GraphStore } from "../runtime/graph-store.js";
import { checkValue } from "../core/values.js";
import { startStrand } from "./support/server.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const STRING: ValueType = { kind: "scalar", name: "String" };

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

function errorsOf(text: string): string[] {
  const r = compileProject([{ file: "a.hx", text }], { checkOnly: true });
  return r.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => `${d.span.start.line}:${d.span.start.column} ${d.code} ${d.message}`);
}

describe("the compiler reserves __proto__ (E104)", () => {
  test("as a field, an object member and a parameter, at the name", () => {
    expect(errorsOf("N::Thing { __proto__: String, name: String }")).toEqual([
      "1:12 E104 field name '__proto__' is reserved: a JavaScript object cannot hold it as a plain member",
    ]);
    expect(errorsOf("N::Thing { meta: {a: String, __proto__: I32} }")).toEqual([
      "1:30 E104 member name '__proto__' is reserved: a JavaScript object cannot hold it as a plain member",
    ]);
    expect(errorsOf("N::Thing { name: String }\nQUERY Q(__proto__: String) =>\n    t <- N<Thing>\n    RETURN t")).toEqual([
      "2:9 E104 parameter name '__proto__' is reserved: a JavaScript object cannot hold it as a plain member",
    ]);
  });

  test("constructor and prototype are ordinary field and parameter names", () => {
    expect(
      errorsOf(
        "N::Thing { constructor: String, prototype: I32 }\nQUERY Q(constructor: String, prototype: I32) =>\n    t <- AddN<Thing>({constructor: constructor, prototype: prototype})\n    RETURN t",
      ),
    ).toEqual([]);
  });
});

describe("the runtime never drops a __proto__ member", () => {
  test("a parameter or object member of that name is an own member of the validated values", () => {
    const params = validateParams([{ name: "__proto__", type: STRING, optional: false }], JSON.parse('{"__proto__": "pp"}'));
    expect(Object.keys(params)).toEqual(["__proto__"]);
    expect(JSON.stringify(params)).toBe('{"__proto__":"pp"}');
    const object: ValueType = { kind: "object", fields: [{ name: "__proto__", type: STRING, optional: false }] };
    const r = checkValue(object, JSON.parse('{"__proto__": "pp"}'), "o");
    expect(r.ok && JSON.stringify(r.value)).toBe('{"__proto__":"pp"}');
  });

  test("a request key __proto__ that is not a parameter is UNKNOWN_PARAMETER", () => {
    expect(() => validateParams([{ name: "name", type: STRING, optional: false }], JSON.parse('{"name": "n", "__proto__": "pp"}'))).toThrow(
      "unknown parameter '__proto__' (parameters: name)",
    );
  });

  test("a schema with a __proto__ field or member cannot open a store (msgpack would read it back as '__proto_')", () => {
    const field = (type: ValueType, name = "__proto__"): SchemaDescriptor => ({
      nodes: [{ name: "Thing", fields: [{ name, type, index: "none", default: null }] }],
      vectors: [],
      edges: [],
    });
    const dir = tempDir();
    dirs.push(dir);
    expect(() => GraphStore.open({ path: dir, schema: field(STRING) })).toThrow(
      "schema: N::Thing has a field named '__proto__', which cannot be stored",
    );
    expect(() =>
      GraphStore.open({
        path: dir,
        schema: field(
          { kind: "array", element: { kind: "object", fields: [{ name: "__proto__", type: STRING, optional: true }] } },
          "meta",
        ),
      }),
    ).toThrow("schema: N::Thing.meta has a member named '__proto__', which cannot be stored");
  });

  test("fields named constructor and prototype are stored and read back", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const schema: SchemaDescriptor = {
      nodes: [
        {
          name: "Thing",
          fields: ["constructor", "prototype", "toString"].map((name) => ({ name, type: STRING, index: "index" as const, default: null })),
        },
      ],
      vectors: [],
      edges: [],
    };
    const store = GraphStore.open({ path: dir, schema, cacheEntries: 0 });
    const id = await store.write((db) => db.addNode("Thing", { constructor: "c", prototype: "p", toString: "t" }).id);
    expect(store.read((db) => JSON.stringify([db.nodeById("Thing", id), db.nodesByIndex("Thing", "constructor", "c").length]))).toBe(
      `[{"id":"${id}","label":"Thing","constructor":"c","prototype":"p","toString":"t"},1]`,
    );
    await store.close();
  });
});

describe("served queries keep a __proto__ key", () => {
  test("in RETURN objects and projections", async () => {
    const project = tempDir();
    dirs.push(project);
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, "a.hx"),
      "N::Thing { name: String }\n" +
        "QUERY Add(name: String) =>\n    t <- AddN<Thing>({name: name})\n    RETURN t\n" +
        'QUERY Lit() =>\n    RETURN {__proto__: "x", b: 1}\n' +
        "QUERY Proj() =>\n    t <- N<Thing>::{__proto__: name}\n    RETURN t\n" +
        "QUERY Named() =>\n    __proto__ <- N<Thing>::COUNT\n    RETURN __proto__\n",
    );
    const server = await startStrand({ project });
    const text = async (query: string, body: unknown = {}): Promise<string> =>
      (
        await fetch(`${server.url}/${query}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).text();
    try {
      await text("Add", { name: "n1" });
      expect(await text("Lit")).toBe('{"__proto__":"x","b":1}');
      expect(await text("Proj")).toBe('{"t":[{"__proto__":"n1"}]}');
      expect(await text("Named")).toBe('{"__proto__":1}');
    } finally {
      await server.stop();
    }
  }, 60_000);
});
