// The HelixQL grammar and the parseSource facade: accepted shapes (exact AST fragments), syntax
// diagnostics (code, line, column, message), generated-parser freshness, speed and a seeded fuzz.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import peggy from "peggy";
import { describe, expect, it } from "vitest";
import { seededRandom as prng } from "../bench/random.js";
import type {
  EdgeSchema,
  Expr,
  Migration,
  NodeSchema,
  QueryDef,
  SourceFile,
  Span,
  Statement,
  Step,
  TypeExpr,
} from "../compiler/syntax/ast.js";
import type { Diagnostic } from "../compiler/diagnostics/diagnostic.js";
import { parseSource } from "../compiler/syntax/parser.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const FILE = "test.hx";

// ---------------------------------------------------------------- helpers

/** Deep copy without `span` keys, for exact structural comparisons. */
function strip<T>(node: T): unknown {
  if (Array.isArray(node)) return node.map((x) => strip(x));
  if (node !== null && typeof node === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) if (k !== "span") out[k] = strip(v);
    return out;
  }
  return node;
}

function describeDiagnostics(ds: readonly Diagnostic[]): string {
  return ds.map((d) => `${d.code} ${d.span.start.line}:${d.span.start.column} ${d.message}`).join("\n");
}

function parseOk(text: string): SourceFile {
  const r = parseSource(text, FILE);
  if (r.ast === null) throw new Error(`expected a successful parse:\n${describeDiagnostics(r.diagnostics)}`);
  expect(r.diagnostics).toEqual([]);
  return r.ast;
}

function parseErr(text: string): Diagnostic {
  const r = parseSource(text, FILE);
  expect(r.ast).toBeNull();
  expect(r.diagnostics).toHaveLength(1);
  return r.diagnostics[0]!;
}

function queryOf(text: string): QueryDef {
  const item = parseOk(text).items[0];
  expect(item?.kind).toBe("Query");
  return item as QueryDef;
}

/** The body statements of `QUERY Q() => <text>`. */
function statements(text: string): Statement[] {
  return queryOf(`QUERY Q() =>\n${text}`).body;
}

/** The expression `text` as the value of an assignment. */
function expr(text: string): Expr {
  const [stmt] = statements(`x <- ${text}`);
  if (stmt?.kind !== "Assign") throw new Error("not an assignment");
  return stmt.value;
}

function stepsOf(text: string): Step[] {
  const e = expr(text);
  if (e.kind !== "Traversal") throw new Error(`not a traversal: ${e.kind}`);
  return e.steps;
}

function fieldType(text: string): TypeExpr {
  const node = parseOk(`N::T { f: ${text} }`).items[0] as NodeSchema;
  return node.fields[0]!.type;
}

const id = (name: string) => ({ name });
const lit = (literal: object) => ({ kind: "Literal", literal });
const num = (raw: string) => lit({ kind: "Number", value: Number(raw), raw, isFloat: /[.eE]/.test(raw) });
const str = (value: string) => lit({ kind: "String", value });
const ident = (name: string) => ({ kind: "Ident", name });
const arg = (value: unknown, name: string | null = null) => ({ name: name === null ? null : id(name), value });
const call = (name: string, args: unknown[] = [], typeArg: string | null = null, hasParens = args.length > 0) => ({
  kind: "Call",
  name: id(name),
  typeArg: typeArg === null ? null : id(typeArg),
  args,
  hasParens,
});
const proj = (...keys: string[]) => ({ kind: "Projection", fields: keys.map((k) => ({ key: id(k), value: null })), spread: false });
const anon = (...steps: unknown[]) => ({ kind: "Traversal", source: { kind: "Anonymous" }, steps });
const scalar = (name: string) => ({ kind: "ScalarType", name });

// ---------------------------------------------------------------- schema

describe("schema definitions", () => {
  it("parses a node with every field modifier and type form", () => {
    const ast = parseOk(
      "N::User { name: String, INDEX email: String, UNIQUE INDEX handle: String, age: U32 DEFAULT 0, created: Date DEFAULT NOW, tags: [String], meta: {a: String, b: [I64]} }",
    );
    expect(strip(ast.items)).toEqual([
      {
        kind: "NodeSchema",
        name: id("User"),
        fields: [
          { name: id("name"), type: scalar("String"), index: "none", default: null },
          { name: id("email"), type: scalar("String"), index: "index", default: null },
          { name: id("handle"), type: scalar("String"), index: "unique", default: null },
          {
            name: id("age"),
            type: scalar("U32"),
            index: "none",
            default: { kind: "DefaultLiteral", value: { kind: "Number", value: 0, raw: "0", isFloat: false } },
          },
          { name: id("created"), type: scalar("Date"), index: "none", default: { kind: "DefaultNow" } },
          { name: id("tags"), type: { kind: "ArrayType", element: scalar("String") }, index: "none", default: null },
          {
            name: id("meta"),
            type: {
              kind: "ObjectType",
              fields: [
                { name: id("a"), optional: false, type: scalar("String") },
                { name: id("b"), optional: false, type: { kind: "ArrayType", element: scalar("I64") } },
              ],
            },
            index: "none",
            default: null,
          },
        ],
      },
    ]);
  });

  it("accepts empty bodies and trailing commas", () => {
    expect(strip(parseOk("N::A {}\nV::B { }\nN::C { x: I8, }").items)).toEqual([
      { kind: "NodeSchema", name: id("A"), fields: [] },
      { kind: "VectorSchema", name: id("B"), fields: [] },
      { kind: "NodeSchema", name: id("C"), fields: [{ name: id("x"), type: scalar("I8"), index: "none", default: null }] },
    ]);
  });

  it("parses vector schemas", () => {
    expect(strip(parseOk("V::Doc { content: String, INDEX lang: String }").items[0])).toEqual({
      kind: "VectorSchema",
      name: id("Doc"),
      fields: [
        { name: id("content"), type: scalar("String"), index: "none", default: null },
        { name: id("lang"), type: scalar("String"), index: "index", default: null },
      ],
    });
  });

  it("parses edges with, without and with empty Properties, and UNIQUE edges", () => {
    const items = parseOk(`
      E::Follows { From: User, To: User, Properties: { since: Date, weight: F64 DEFAULT 1.0 } }
      E::Likes { From: User, To: Post }
      E::Tagged { To: Tag, From: Post, Properties: {}, }
      E::BestFriend UNIQUE { From: User, To: User }
      E::Broken { Properties: { x: I32 } }
    `).items as EdgeSchema[];
    expect(strip(items)).toEqual([
      {
        kind: "EdgeSchema",
        name: id("Follows"),
        unique: false,
        from: id("User"),
        to: id("User"),
        fields: [
          { name: id("since"), type: scalar("Date"), index: "none", default: null },
          {
            name: id("weight"),
            type: scalar("F64"),
            index: "none",
            default: { kind: "DefaultLiteral", value: { kind: "Number", value: 1, raw: "1.0", isFloat: true } },
          },
        ],
      },
      { kind: "EdgeSchema", name: id("Likes"), unique: false, from: id("User"), to: id("Post"), fields: [] },
      { kind: "EdgeSchema", name: id("Tagged"), unique: false, from: id("Post"), to: id("Tag"), fields: [] },
      { kind: "EdgeSchema", name: id("BestFriend"), unique: true, from: id("User"), to: id("User"), fields: [] },
      {
        kind: "EdgeSchema",
        name: id("Broken"),
        unique: false,
        from: null,
        to: null,
        fields: [{ name: id("x"), type: scalar("I32"), index: "none", default: null }],
      },
    ]);
  });

  it("parses every default literal form", () => {
    const node = parseOk(
      'N::D { a: String DEFAULT "x\\n", b: I32 DEFAULT -3, c: F64 DEFAULT 2.5e-3, d: Boolean DEFAULT true, e: Boolean DEFAULT false, f: String DEFAULT NONE, g: Date DEFAULT NOW }',
    ).items[0] as NodeSchema;
    expect(strip(node.fields.map((f) => f.default))).toEqual([
      { kind: "DefaultLiteral", value: { kind: "String", value: "x\n" } },
      { kind: "DefaultLiteral", value: { kind: "Number", value: -3, raw: "-3", isFloat: false } },
      { kind: "DefaultLiteral", value: { kind: "Number", value: 0.0025, raw: "2.5e-3", isFloat: true } },
      { kind: "DefaultLiteral", value: { kind: "Boolean", value: true } },
      { kind: "DefaultLiteral", value: { kind: "Boolean", value: false } },
      { kind: "DefaultLiteral", value: { kind: "None" } },
      { kind: "DefaultNow" },
    ]);
  });

  it("maps every scalar type name and treats other names as NamedType", () => {
    for (const s of ["String", "Boolean", "I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64", "U128", "F32", "F64", "ID", "Date"]) {
      expect(strip(fieldType(s))).toEqual(scalar(s));
    }
    expect(strip(fieldType("User"))).toEqual({ kind: "NamedType", name: "User" });
    expect(strip(fieldType("string"))).toEqual({ kind: "NamedType", name: "string" });
    expect(strip(fieldType("[[U8]]"))).toEqual({ kind: "ArrayType", element: { kind: "ArrayType", element: scalar("U8") } });
    expect(strip(fieldType("{a?: String, b: {c: [ID]},}"))).toEqual({
      kind: "ObjectType",
      fields: [
        { name: id("a"), optional: true, type: scalar("String") },
        {
          name: id("b"),
          optional: false,
          type: { kind: "ObjectType", fields: [{ name: id("c"), optional: false, type: { kind: "ArrayType", element: scalar("ID") } }] },
        },
      ],
    });
    expect(strip(fieldType("{}"))).toEqual({ kind: "ObjectType", fields: [] });
  });

  it("parses versioned schema blocks", () => {
    const ast = parseOk("schema::1 { N::User { name: String } E::F { From: User, To: User } }\nschema::2 {}");
    expect(strip(ast.items)).toEqual([
      {
        kind: "SchemaVersionBlock",
        version: 1,
        items: [
          { kind: "NodeSchema", name: id("User"), fields: [{ name: id("name"), type: scalar("String"), index: "none", default: null }] },
          { kind: "EdgeSchema", name: id("F"), unique: false, from: id("User"), to: id("User"), fields: [] },
        ],
      },
      { kind: "SchemaVersionBlock", version: 2, items: [] },
    ]);
  });

  it("parses migrations with casts, edge Properties, shorthand fields and named targets", () => {
    const ast = parseOk(`
      MIGRATION schema::1 => schema::2 {
        N::User => _::{ name: name, age: age AS U32, tags: tags AS [String], email, }
        E::Follows => _::{ Properties: { since: since, w: weight AS F64 } }
        V::Doc => V::Document { content: body }
        N::Old => N::New::{ x: "default" }
      }
    `);
    const m = ast.items[0] as Migration;
    expect(strip(m)).toEqual({
      kind: "Migration",
      fromVersion: 1,
      toVersion: 2,
      items: [
        {
          itemKind: "N",
          from: id("User"),
          to: id("User"),
          mappings: [
            { field: id("name"), value: ident("name"), cast: null },
            { field: id("age"), value: ident("age"), cast: scalar("U32") },
            { field: id("tags"), value: ident("tags"), cast: { kind: "ArrayType", element: scalar("String") } },
            { field: id("email"), value: ident("email"), cast: null },
          ],
        },
        {
          itemKind: "E",
          from: id("Follows"),
          to: id("Follows"),
          mappings: [
            { field: id("since"), value: ident("since"), cast: null },
            { field: id("w"), value: ident("weight"), cast: scalar("F64") },
          ],
        },
        { itemKind: "V", from: id("Doc"), to: id("Document"), mappings: [{ field: id("content"), value: ident("body"), cast: null }] },
        { itemKind: "N", from: id("Old"), to: id("New"), mappings: [{ field: id("x"), value: str("default"), cast: null }] },
      ],
    });
    // `_` as target: the target name repeats the source name, the span is the `_`.
    const first = m.items[0]!;
    expect(first.to.span.start.column).toBe(first.span.start.column + "N::User => ".length);
  });
});

// ---------------------------------------------------------------- queries

describe("queries", () => {
  it("parses attributes, parameters (optional, nested object arrays) and RETURN", () => {
    const q = queryOf(`
      #[mcp]
      #[model("openai:text-embedding-3-small")]
      QUERY Ingest(p: String, q?: I32, user: User, docs: [{title: String, chunks: [{text: String, v: [F64]}]}]) =>
        RETURN p
    `);
    expect(strip(q.attributes)).toEqual([
      { name: id("mcp"), args: [] },
      { name: id("model"), args: [{ kind: "String", value: "openai:text-embedding-3-small" }] },
    ]);
    expect(q.name.name).toBe("Ingest");
    expect(strip(q.params)).toEqual([
      { name: id("p"), optional: false, type: scalar("String") },
      { name: id("q"), optional: true, type: scalar("I32") },
      { name: id("user"), optional: false, type: { kind: "NamedType", name: "User" } },
      {
        name: id("docs"),
        optional: false,
        type: {
          kind: "ArrayType",
          element: {
            kind: "ObjectType",
            fields: [
              { name: id("title"), optional: false, type: scalar("String") },
              {
                name: id("chunks"),
                optional: false,
                type: {
                  kind: "ArrayType",
                  element: {
                    kind: "ObjectType",
                    fields: [
                      { name: id("text"), optional: false, type: scalar("String") },
                      { name: id("v"), optional: false, type: { kind: "ArrayType", element: scalar("F64") } },
                    ],
                  },
                },
              },
            ],
          },
        },
      },
    ]);
    expect(strip(q.returns)).toEqual({ kind: "ReturnValues", values: [ident("p")] });
  });

  it("accepts empty parameter lists, trailing commas and a missing RETURN", () => {
    const ast = parseOk("QUERY A() =>\nQUERY B(x: I32,) => y <- x\nQUERY C() => RETURN NONE");
    const [a, b, c] = ast.items as QueryDef[];
    expect(strip(a)).toEqual({ kind: "Query", attributes: [], name: id("A"), params: [], body: [], returns: null });
    expect(b!.params).toHaveLength(1);
    expect(b!.returns).toBeNull();
    expect(strip(c!.returns)).toEqual({ kind: "ReturnNone" });
  });

  it("parses every RETURN form", () => {
    const ret = (text: string) => strip(queryOf(`QUERY Q() => ${text}`).returns);
    expect(ret("RETURN NONE")).toEqual({ kind: "ReturnNone" });
    expect(ret("RETURN a, b")).toEqual({ kind: "ReturnValues", values: [ident("a"), ident("b")] });
    expect(ret("RETURN users::{name, age}")).toEqual({
      kind: "ReturnValues",
      values: [{ kind: "Traversal", source: { kind: "Var", name: id("users") }, steps: [proj("name", "age")] }],
    });
    expect(ret("RETURN users::ID")).toEqual({
      kind: "ReturnValues",
      values: [{ kind: "Traversal", source: { kind: "Var", name: id("users") }, steps: [call("ID")] }],
    });
    expect(ret('RETURN "ok"')).toEqual({ kind: "ReturnValues", values: [str("ok")] });
    expect(ret("RETURN {user: u::{name}, count: c}")).toEqual({
      kind: "ReturnValues",
      values: [
        {
          kind: "Object",
          entries: [
            { key: id("user"), value: { kind: "Traversal", source: { kind: "Var", name: id("u") }, steps: [proj("name")] } },
            { key: id("count"), value: ident("c") },
          ],
        },
      ],
    });
    expect(ret("RETURN [a, b]")).toEqual({ kind: "ReturnValues", values: [{ kind: "Array", elements: [ident("a"), ident("b")] }] });
    expect(ret("RETURN NONE_LEFT")).toEqual({ kind: "ReturnValues", values: [ident("NONE_LEFT")] });
  });

  it("ends a RETURN-less query where the next top-level item starts", () => {
    const ast = parseOk(`
      QUERY A() =>
        x <- N<User>
      N::User { name: String }
      QUERY B() =>
        AddN<User>
      E::F UNIQUE { From: A, To: B }
      QUERY C() => y <- x
      schema::3 { }
      QUERY D() => z <- 1
      #[mcp]
      QUERY E() => w <- 2
      MIGRATION schema::1 => schema::2 {}
    `);
    expect(ast.items.map((i) => i.kind)).toEqual([
      "Query",
      "NodeSchema",
      "Query",
      "EdgeSchema",
      "Query",
      "SchemaVersionBlock",
      "Query",
      "Query",
      "Migration",
    ]);
    expect((ast.items[0] as QueryDef).body).toHaveLength(1);
    expect((ast.items[2] as QueryDef).body).toHaveLength(1);
  });

  it("parses a whole file of mixed items", () => {
    const text = readFileSync(`${root}/test/fixtures/grammar/social.hx`, "utf8");
    const ast = parseOk(text);
    expect(ast.items.map((i) => i.kind)).toEqual([
      "NodeSchema",
      "NodeSchema",
      "VectorSchema",
      "EdgeSchema",
      "EdgeSchema",
      "EdgeSchema",
      "SchemaVersionBlock",
      "Migration",
      "Query",
      "Query",
      "Query",
      "Query",
      "Query",
      "Query",
      "Query",
      "Query",
      "Query",
      "Query",
    ]);
    const names = ast.items.filter((i): i is QueryDef => i.kind === "Query").map((q) => q.name.name);
    expect(names).toEqual(["CreateUser", "Follow", "Feed", "Profile", "Cards", "Ingest", "Search", "Path", "Cleanup", "Touch"]);
  });

  it("parses every fixture file", () => {
    for (const f of readdirSync(`${root}/test/fixtures/grammar`).filter((n) => n.endsWith(".hx"))) {
      const r = parseSource(readFileSync(`${root}/test/fixtures/grammar/${f}`, "utf8"), f);
      expect(describeDiagnostics(r.diagnostics), f).toBe("");
    }
  });
});

// ---------------------------------------------------------------- statements

describe("statements", () => {
  it("parses assignment, DROP, expression statements and FOR loops", () => {
    const body = statements(`
      u <- N<User>(id)
      DROP u::OutE<Follows>
      AddE<Follows>::From(a)::To(b)
      FOR x IN xs { y <- x }
      FOR {a, b} IN pairs {
        FOR c IN a { DROP c }
      }
    `);
    expect(strip(body)).toEqual([
      {
        kind: "Assign",
        name: id("u"),
        value: {
          kind: "Traversal",
          source: { kind: "Lookup", item: "N", typeArg: id("User"), args: [arg(ident("id"))], hasParens: true },
          steps: [],
        },
      },
      { kind: "Drop", target: { kind: "Traversal", source: { kind: "Var", name: id("u") }, steps: [call("OutE", [], "Follows")] } },
      {
        kind: "ExprStatement",
        expr: {
          kind: "Traversal",
          source: { kind: "GenericCall", name: id("AddE"), typeArg: id("Follows"), args: [], hasParens: false },
          steps: [call("From", [arg(ident("a"))]), call("To", [arg(ident("b"))])],
        },
      },
      {
        kind: "For",
        binding: { kind: "ForName", name: id("x") },
        iterable: ident("xs"),
        body: [{ kind: "Assign", name: id("y"), value: ident("x") }],
      },
      {
        kind: "For",
        binding: { kind: "ForDestructure", names: [id("a"), id("b")] },
        iterable: ident("pairs"),
        body: [
          { kind: "For", binding: { kind: "ForName", name: id("c") }, iterable: ident("a"), body: [{ kind: "Drop", target: ident("c") }] },
        ],
      },
    ]);
  });

  it("allows empty FOR bodies and traversals as iterables", () => {
    expect(strip(statements("FOR u IN N<User>::Out<Follows> {}"))).toEqual([
      {
        kind: "For",
        binding: { kind: "ForName", name: id("u") },
        iterable: {
          kind: "Traversal",
          source: { kind: "Lookup", item: "N", typeArg: id("User"), args: [], hasParens: false },
          steps: [call("Out", [], "Follows")],
        },
        body: [],
      },
    ]);
  });

  it("lets traversals span lines and comments sit anywhere whitespace may", () => {
    const body = statements(`
      // leading comment
      posts <- me // trailing comment
          ::Out<Follows>   // one hop
          :: Out<  Wrote > // spaced
          ::RANGE( 0 , 10 , ) // trailing comma in args
    `);
    expect(strip(body)).toEqual([
      {
        kind: "Assign",
        name: id("posts"),
        value: {
          kind: "Traversal",
          source: { kind: "Var", name: id("me") },
          steps: [call("Out", [], "Follows"), call("Out", [], "Wrote"), call("RANGE", [arg(num("0")), arg(num("10"))])],
        },
      },
    ]);
  });
});

describe("layout", () => {
  it("accepts CRLF line endings, a byte-order mark and a comment at end of file", () => {
    const ast = parseOk("\uFEFFN::A {\r\n  x: I32,\r\n}\r\nQUERY Q() =>\r\n  RETURN NONE // done");
    expect(ast.items.map((i) => i.kind)).toEqual(["NodeSchema", "Query"]);
    const q = ast.items[1] as QueryDef;
    // Like peggy, only "\n" starts a line; "\r" is an ordinary column.
    expect([q.span.start.line, q.span.start.column]).toEqual([4, 1]);
    expect(parseOk("").items).toEqual([]);
    expect(parseOk("   // only a comment").items).toEqual([]);
  });

  it("reports errors on CRLF input at the right line", () => {
    const d = parseErr("N::A {\r\n  x I32\r\n}");
    expect([d.code, d.span.start.line, d.span.start.column]).toEqual(["E001", 2, 5]);
  });
});

// ---------------------------------------------------------------- expressions

describe("literals", () => {
  it("decodes string escapes", () => {
    expect(strip(expr('"a\\"b\\\\c\\nd\\te\\rf\\u00e9\\/\\u{1F600}"'))).toEqual(str('a"b\\c\nd\te\rf\u00e9/\u{1F600}'));
    expect(strip(expr('""'))).toEqual(str(""));
    expect(strip(expr('"// not a comment"'))).toEqual(str("// not a comment"));
  });

  it("parses numbers with raw text and isFloat", () => {
    expect(strip(expr("42"))).toEqual(lit({ kind: "Number", value: 42, raw: "42", isFloat: false }));
    expect(strip(expr("-7"))).toEqual(lit({ kind: "Number", value: -7, raw: "-7", isFloat: false }));
    expect(strip(expr("3.25"))).toEqual(lit({ kind: "Number", value: 3.25, raw: "3.25", isFloat: true }));
    expect(strip(expr("1e-3"))).toEqual(lit({ kind: "Number", value: 0.001, raw: "1e-3", isFloat: true }));
    expect(strip(expr("-2.5E+4"))).toEqual(lit({ kind: "Number", value: -25000, raw: "-2.5E+4", isFloat: true }));
    expect(strip(expr("340282366920938463463374607431768211455"))).toMatchObject({
      literal: { raw: "340282366920938463463374607431768211455", isFloat: false },
    });
  });

  it("parses booleans, NONE and NOW, and keeps keyword-prefixed names as identifiers", () => {
    expect(strip(expr("true"))).toEqual(lit({ kind: "Boolean", value: true }));
    expect(strip(expr("false"))).toEqual(lit({ kind: "Boolean", value: false }));
    expect(strip(expr("NONE"))).toEqual(lit({ kind: "None" }));
    expect(strip(expr("NOW"))).toEqual(lit({ kind: "Now" }));
    for (const name of ["trueish", "NOWhere", "INDEXED", "Return", "query", "_private", "in", "FORM", "N1", "Nodes", "schema"]) {
      expect(strip(expr(name))).toEqual(ident(name));
    }
  });
});

describe("expressions", () => {
  it("parses arrays and object literals (including nesting and shorthand keys)", () => {
    expect(strip(expr('[a, 1, "x", [], [true],]'))).toEqual({
      kind: "Array",
      elements: [
        ident("a"),
        num("1"),
        str("x"),
        { kind: "Array", elements: [] },
        { kind: "Array", elements: [lit({ kind: "Boolean", value: true })] },
      ],
    });
    expect(strip(expr("{a: 1, b: {c: [d]}, e, }"))).toEqual({
      kind: "Object",
      entries: [
        { key: id("a"), value: num("1") },
        { key: id("b"), value: { kind: "Object", entries: [{ key: id("c"), value: { kind: "Array", elements: [ident("d")] } }] } },
        { key: id("e"), value: ident("e") },
      ],
    });
    expect(strip(expr("{}"))).toEqual({ kind: "Object", entries: [] });
  });

  it("parses calls, named arguments and negation", () => {
    expect(strip(expr("AND(a, OR(b, c))"))).toEqual({
      kind: "Call",
      callee: id("AND"),
      args: [arg(ident("a")), arg({ kind: "Call", callee: id("OR"), args: [arg(ident("b")), arg(ident("c"))] })],
    });
    expect(strip(expr("PI()"))).toEqual({ kind: "Call", callee: id("PI"), args: [] });
    expect(strip(expr("ADD(1, _::{weight})"))).toEqual({
      kind: "Call",
      callee: id("ADD"),
      args: [arg(num("1")), arg(anon(proj("weight")))],
    });
    expect(strip(expr('Embed("literal")'))).toEqual({ kind: "Call", callee: id("Embed"), args: [arg(str("literal"))] });
    expect(strip(expr("!EXISTS(_::Out<E>)"))).toEqual({
      kind: "Not",
      operand: { kind: "Call", callee: id("EXISTS"), args: [arg(anon(call("Out", [], "E")))] },
    });
    expect(strip(expr("!AND(a, b)"))).toMatchObject({ kind: "Not", operand: { kind: "Call", callee: id("AND") } });
    expect(strip(expr("!!x"))).toEqual({ kind: "Not", operand: { kind: "Not", operand: ident("x") } });
    expect(strip(expr("f(k: 60, m: x::Out)"))).toEqual({
      kind: "Call",
      callee: id("f"),
      args: [arg(num("60"), "k"), arg({ kind: "Traversal", source: { kind: "Var", name: id("x") }, steps: [call("Out")] }, "m")],
    });
  });
});

describe("member access", () => {
  it("parses `a.b` and `a.b.c` as nested Member expressions with exact spans", () => {
    const body = statements("FOR user IN users {\n  AddN<User>({ name: user.name, city: user.address.city })\n}");
    const loop = body[0]!;
    if (loop.kind !== "For" || loop.body[0]?.kind !== "ExprStatement") throw new Error("shape");
    const e = loop.body[0].expr;
    if (e.kind !== "Traversal") throw new Error("shape");
    const props = e.source.kind === "GenericCall" ? e.source.args[0]!.value : null;
    expect(strip(props)).toEqual({
      kind: "Object",
      entries: [
        { key: id("name"), value: { kind: "Member", object: ident("user"), property: id("name") } },
        {
          key: id("city"),
          value: { kind: "Member", object: { kind: "Member", object: ident("user"), property: id("address") }, property: id("city") },
        },
      ],
    });
    if (props?.kind !== "Object") throw new Error("shape");
    const city = props.entries[1]!.value;
    if (city.kind !== "Member" || city.object.kind !== "Member") throw new Error("shape");
    expect([city.span.start.column, city.span.end.column]).toEqual([39, 56]);
    expect([city.object.span.start.column, city.object.span.end.column]).toEqual([39, 51]);
  });

  it("works as a FOR iterable and rejects steps after a member access", () => {
    expect(strip(statements("FOR x IN data.items {}"))).toEqual([
      {
        kind: "For",
        binding: { kind: "ForName", name: id("x") },
        iterable: { kind: "Member", object: ident("data"), property: id("items") },
        body: [],
      },
    ]);
    const d = parseErr("QUERY A() => x <- a.b::Out");
    expect([d.code, d.span.start.column]).toEqual(["E001", 22]);
    expect(parseErr("QUERY A() => x <- a.").message).toBe("expected an identifier, found end of file");
  });
});

describe("sources", () => {
  const source = (text: string) => {
    const e = expr(text);
    if (e.kind !== "Traversal") throw new Error(`not a traversal: ${e.kind}`);
    return strip(e.source);
  };
  const lookup = (item: string, typeArg: string | null, args: unknown[], hasParens: boolean) => ({
    kind: "Lookup",
    item,
    typeArg: typeArg === null ? null : id(typeArg),
    args,
    hasParens,
  });
  const generic = (name: string, typeArg: string, args: unknown[], hasParens = args.length > 0) => ({
    kind: "GenericCall",
    name: id(name),
    typeArg: id(typeArg),
    args,
    hasParens,
  });

  it("parses N/E/V lookups in every form", () => {
    expect(source("N<User>")).toEqual(lookup("N", "User", [], false));
    expect(source("N<User>(id)")).toEqual(lookup("N", "User", [arg(ident("id"))], true));
    expect(source("N<User>(id1, id2)")).toEqual(lookup("N", "User", [arg(ident("id1")), arg(ident("id2"))], true));
    expect(source("N<User>({email: e})")).toEqual(
      lookup("N", "User", [arg({ kind: "Object", entries: [{ key: id("email"), value: ident("e") }] })], true),
    );
    expect(source("N")).toEqual(lookup("N", null, [], false));
    expect(source("N(id)")).toEqual(lookup("N", null, [arg(ident("id"))], true));
    expect(source("N()")).toEqual(lookup("N", null, [], true));
    expect(source("E<Follows>")).toEqual(lookup("E", "Follows", [], false));
    expect(source("E<Follows>(id)")).toEqual(lookup("E", "Follows", [arg(ident("id"))], true));
    expect(source("V<Doc>(id)")).toEqual(lookup("V", "Doc", [arg(ident("id"))], true));
    expect(source("V<Doc>")).toEqual(lookup("V", "Doc", [], false));
    expect(source("N< User >")).toEqual(lookup("N", "User", [], false));
  });

  it("parses generic-call sources", () => {
    const props = {
      kind: "Object",
      entries: [
        { key: id("name"), value: ident("name") },
        { key: id("age"), value: num("3") },
      ],
    };
    expect(source("AddN<User>")).toEqual(generic("AddN", "User", []));
    expect(source("AddN<User>({name: name, age: 3})")).toEqual(generic("AddN", "User", [arg(props)]));
    expect(source("AddN<User>()")).toEqual(generic("AddN", "User", [], true));
    expect(source("AddV<Doc>(vec, {content: c})")).toEqual(
      generic("AddV", "Doc", [arg(ident("vec")), arg({ kind: "Object", entries: [{ key: id("content"), value: ident("c") }] })]),
    );
    expect(source("AddV<Doc>(Embed(text), {})")).toEqual(
      generic("AddV", "Doc", [
        arg({ kind: "Call", callee: id("Embed"), args: [arg(ident("text"))] }),
        arg({ kind: "Object", entries: [] }),
      ]),
    );
    expect(source("UpsertN<User>({name: name, age: 3})")).toEqual(generic("UpsertN", "User", [arg(props)]));
    expect(source("UpsertV<Doc>(v, {})")).toEqual(generic("UpsertV", "Doc", [arg(ident("v")), arg({ kind: "Object", entries: [] })]));
    expect(source("SearchV<Doc>(vec, 10)")).toEqual(generic("SearchV", "Doc", [arg(ident("vec")), arg(num("10"))]));
    expect(source("SearchV<Doc>(Embed(q), k)")).toEqual(
      generic("SearchV", "Doc", [arg({ kind: "Call", callee: id("Embed"), args: [arg(ident("q"))] }), arg(ident("k"))]),
    );
    expect(source("SearchBM25<Doc>(text, 10)")).toEqual(generic("SearchBM25", "Doc", [arg(ident("text")), arg(num("10"))]));
  });

  it("parses edge creation chains", () => {
    expect(strip(expr("AddE<Follows>({since: s})::From(a)::To(b)"))).toEqual({
      kind: "Traversal",
      source: generic("AddE", "Follows", [arg({ kind: "Object", entries: [{ key: id("since"), value: ident("s") }] })]),
      steps: [call("From", [arg(ident("a"))]), call("To", [arg(ident("b"))])],
    });
    expect(strip(expr("UpsertE<Follows>({})::From(a)::To(b)"))).toMatchObject({
      source: { kind: "GenericCall", name: id("UpsertE") },
      steps: [{ name: id("From") }, { name: id("To") }],
    });
  });

  it("parses variable and anonymous sources", () => {
    expect(source("user::Out<Follows>")).toEqual({ kind: "Var", name: id("user") });
    expect(strip(expr("_::{age}::GT(18)"))).toEqual(anon(proj("age"), call("GT", [arg(num("18"))])));
    expect(strip(expr("_::Out<Follows>::COUNT"))).toEqual(anon(call("Out", [], "Follows"), call("COUNT")));
    expect(strip(expr("_"))).toEqual(anon());
  });
});

describe("steps", () => {
  it("parses call steps with and without type arguments and parentheses", () => {
    const steps = stepsOf(
      "x::Out::In<E>::OutE<E>::InE::FromN::ToN::FromV::ToV::COUNT::RANGE(0, 10)::ORDER<Asc>(_::{age})::ORDER<Desc>(_::{age})::FIRST::GROUP_BY(a, b)::AGGREGATE_BY(a)::Dedup()",
    );
    expect(strip(steps)).toEqual([
      call("Out"),
      call("In", [], "E"),
      call("OutE", [], "E"),
      call("InE"),
      call("FromN"),
      call("ToN"),
      call("FromV"),
      call("ToV"),
      call("COUNT"),
      call("RANGE", [arg(num("0")), arg(num("10"))]),
      call("ORDER", [arg(anon(proj("age")))], "Asc"),
      call("ORDER", [arg(anon(proj("age")))], "Desc"),
      call("FIRST"),
      call("GROUP_BY", [arg(ident("a")), arg(ident("b"))]),
      call("AGGREGATE_BY", [arg(ident("a"))]),
      call("Dedup", [], null, true),
    ]);
  });

  it("parses UPDATE, WHERE with comparisons, IS_IN, INTERSECT, rerankers and shortest paths", () => {
    expect(strip(stepsOf("u::UPDATE({name: n})"))).toEqual([
      call("UPDATE", [arg({ kind: "Object", entries: [{ key: id("name"), value: ident("n") }] })]),
    ]);
    expect(strip(stepsOf("u::WHERE(AND(_::{age}::GT(18), _::{age}::LT(30)))"))).toEqual([
      call("WHERE", [
        arg({
          kind: "Call",
          callee: id("AND"),
          args: [arg(anon(proj("age"), call("GT", [arg(num("18"))]))), arg(anon(proj("age"), call("LT", [arg(num("30"))])))],
        }),
      ]),
    ]);
    expect(strip(stepsOf("u::WHERE(_::Out<Author>::{name}::EQ(n))"))).toEqual([
      call("WHERE", [arg(anon(call("Out", [], "Author"), proj("name"), call("EQ", [arg(ident("n"))])))]),
    ]);
    expect(strip(stepsOf("u::WHERE(_::Out<Follows>::COUNT::GT(10))"))).toEqual([
      call("WHERE", [arg(anon(call("Out", [], "Follows"), call("COUNT"), call("GT", [arg(num("10"))])))]),
    ]);
    for (const op of ["EQ", "NEQ", "GT", "GTE", "LT", "LTE", "CONTAINS", "IS_IN"]) {
      expect(strip(stepsOf(`_::{a}::${op}(v)`))).toEqual([proj("a"), call(op, [arg(ident("v"))])]);
    }
    expect(strip(stepsOf("u::INTERSECT(_::In<E>)::ID"))).toEqual([call("INTERSECT", [arg(anon(call("In", [], "E")))]), call("ID")]);
    expect(strip(stepsOf('r::RerankRRF(k: 60)::RerankMMR(lambda: 0.7, distance: "cosine")::RerankRRF'))).toEqual([
      call("RerankRRF", [arg(num("60"), "k")]),
      call("RerankMMR", [arg(num("0.7"), "lambda"), arg(str("cosine"), "distance")]),
      call("RerankRRF"),
    ]);
    expect(
      strip(
        stepsOf(
          'a::ShortestPath<E>::To(b)::ShortestPathBFS<E>::From(b)::ShortestPathDijkstras<E>(_::{weight})::ShortestPathAStar<E>(w, "h")',
        ),
      ),
    ).toEqual([
      call("ShortestPath", [], "E"),
      call("To", [arg(ident("b"))]),
      call("ShortestPathBFS", [], "E"),
      call("From", [arg(ident("b"))]),
      call("ShortestPathDijkstras", [arg(anon(proj("weight")))], "E"),
      call("ShortestPathAStar", [arg(ident("w")), arg(str("h"))], "E"),
    ]);
  });

  it("parses projections: renames, ID, nested traversals, spread", () => {
    expect(strip(stepsOf("u::{a, b}"))).toEqual([proj("a", "b")]);
    expect(strip(stepsOf("u::{newName: a, uid: ID}"))).toEqual([
      {
        kind: "Projection",
        fields: [
          { key: id("newName"), value: ident("a") },
          { key: id("uid"), value: ident("ID") },
        ],
        spread: false,
      },
    ]);
    expect(strip(stepsOf("u::{followers: _::In<Follows>::COUNT, posts: _::Out<Wrote>::RANGE(0,5)::{title}}"))).toEqual([
      {
        kind: "Projection",
        fields: [
          { key: id("followers"), value: anon(call("In", [], "Follows"), call("COUNT")) },
          { key: id("posts"), value: anon(call("Out", [], "Wrote"), call("RANGE", [arg(num("0")), arg(num("5"))]), proj("title")) },
        ],
        spread: false,
      },
    ]);
    expect(strip(stepsOf("u::{a, ..}"))).toEqual([{ kind: "Projection", fields: [{ key: id("a"), value: null }], spread: true }]);
    expect(strip(stepsOf("u::{.., b: c,}"))).toEqual([{ kind: "Projection", fields: [{ key: id("b"), value: ident("c") }], spread: true }]);
    expect(strip(stepsOf("u::{}"))).toEqual([{ kind: "Projection", fields: [], spread: false }]);
  });

  it("parses exclusions and closures", () => {
    expect(strip(stepsOf("u::!{a, b}"))).toEqual([{ kind: "Exclusion", fields: [id("a"), id("b")] }]);
    expect(strip(stepsOf("users::|u|{ name: u::{name}, n: u::Out<F>::COUNT, .. }"))).toEqual([
      {
        kind: "Closure",
        param: id("u"),
        fields: [
          { key: id("name"), value: { kind: "Traversal", source: { kind: "Var", name: id("u") }, steps: [proj("name")] } },
          {
            key: id("n"),
            value: { kind: "Traversal", source: { kind: "Var", name: id("u") }, steps: [call("Out", [], "F"), call("COUNT")] },
          },
        ],
        spread: true,
      },
    ]);
  });
});

// ---------------------------------------------------------------- spans

describe("spans", () => {
  it("gives exact 1-based line/column and 0-based offsets, excluding trailing whitespace", () => {
    const text = "// header\nN::User {\n  name: String,  \n}\n\nQUERY Q() =>\n  u <- N<User>(id)::{name}\n  RETURN u  \n";
    const ast = parseOk(text);
    const node = ast.items[0] as NodeSchema;
    const q = ast.items[1] as QueryDef;
    const at = (s: Span) => [
      s.start.line,
      s.start.column,
      s.start.offset,
      s.end.line,
      s.end.column,
      s.end.offset,
      text.slice(s.start.offset, s.end.offset),
    ];
    expect(at(node.span)).toEqual([2, 1, 10, 4, 2, 39, "N::User {\n  name: String,  \n}"]);
    expect(at(node.name.span)).toEqual([2, 4, 13, 2, 8, 17, "User"]);
    expect(at(node.fields[0]!.span)).toEqual([3, 3, 22, 3, 15, 34, "name: String"]);
    expect(at(node.fields[0]!.type.span)).toEqual([3, 9, 28, 3, 15, 34, "String"]);
    expect(at(q.span)).toEqual([6, 1, 41, 8, 11, 91, "QUERY Q() =>\n  u <- N<User>(id)::{name}\n  RETURN u"]);
    const assign = q.body[0]!;
    expect(at(assign.span)).toEqual([7, 3, 56, 7, 27, 80, "u <- N<User>(id)::{name}"]);
    if (assign.kind !== "Assign" || assign.value.kind !== "Traversal") throw new Error("shape");
    expect(at(assign.value.span)).toEqual([7, 8, 61, 7, 27, 80, "N<User>(id)::{name}"]);
    expect(at(assign.value.source.span)).toEqual([7, 8, 61, 7, 19, 72, "N<User>(id)"]);
    expect(at(assign.value.steps[0]!.span)).toEqual([7, 21, 74, 7, 27, 80, "{name}"]);
    expect(at(q.returns!.span)).toEqual([8, 3, 83, 8, 11, 91, "RETURN u"]);
    expect(ast.span.file).toBe(FILE);
    expect(assign.span.file).toBe(FILE);
  });

  it("spans a literal expression and its literal identically", () => {
    const e = expr('"hi"');
    if (e.kind !== "Literal") throw new Error("shape");
    expect(e.literal.span).toEqual(e.span);
    expect(e.span.end.offset - e.span.start.offset).toBe(4);
  });
});

// ---------------------------------------------------------------- syntax errors

describe("syntax diagnostics", () => {
  const cases: { name: string; text: string; code: string; line: number; column: number; message: string | RegExp }[] = [
    {
      name: "unclosed argument list",
      text: "QUERY A() =>\n  x <- N<User>::RANGE(0, 10\nRETURN x",
      code: "E001",
      line: 3,
      column: 1,
      message: "expected ',' or ')' to close the argument list of RANGE (opened at line 2, column 22), found 'RETURN'",
    },
    {
      name: "unclosed schema body at end of file",
      text: "N::User { name: String",
      code: "E005",
      line: 1,
      column: 23,
      message: "expected ',', 'DEFAULT' or '}' to close the definition of N::User, found end of file",
    },
    {
      name: "missing colon in field",
      text: "N::User { name: String,\n  age U32 }",
      code: "E001",
      line: 2,
      column: 7,
      message: "expected ':', found 'U32'",
    },
    {
      name: "keyword as parameter name",
      text: "QUERY Get(IN: String) => RETURN NONE",
      code: "E004",
      line: 1,
      column: 11,
      message: "'IN' is a reserved keyword and cannot be used as a name here",
    },
    {
      name: "keyword as variable",
      text: "QUERY A() =>\n  DEFAULT <- 1",
      code: "E004",
      line: 2,
      column: 3,
      message: /'DEFAULT' is a reserved keyword/,
    },
    {
      name: "missing expression at end",
      text: "QUERY A() => x <- ",
      code: "E005",
      line: 1,
      column: 19,
      message: "expected an expression, found end of file",
    },
    { name: "= instead of <-", text: "QUERY A() => x = N<User> RETURN x", code: "E001", line: 1, column: 16, message: /found '='$/ },
    {
      name: "unterminated string",
      text: 'QUERY A() =>\n  x <- "abc\n',
      code: "E002",
      line: 2,
      column: 8,
      message: "unterminated string literal: missing the closing '\"'",
    },
    {
      name: "invalid escape",
      text: 'QUERY A() => x <- "a\\qb" RETURN x',
      code: "E003",
      line: 1,
      column: 21,
      message: "invalid escape sequence '\\q' in string literal",
    },
    {
      name: "bad unicode escape",
      text: 'QUERY A() => x <- "\\u12G4"',
      code: "E003",
      line: 1,
      column: 20,
      message: "invalid escape sequence '\\u12' in string literal",
    },
    {
      name: "lower-case keyword",
      text: "query A() => RETURN x",
      code: "E001",
      line: 1,
      column: 1,
      message: "expected a QUERY or schema definition or end of file, found 'query'",
    },
    {
      name: "stray character in body",
      text: "QUERY A() => @",
      code: "E001",
      line: 1,
      column: 14,
      message: "expected a statement, a QUERY or schema definition, 'RETURN' or end of file, found '@'",
    },
    {
      name: "unclosed parameter list",
      text: "QUERY A( => RETURN x",
      code: "E001",
      line: 1,
      column: 10,
      message: "expected an identifier or ')' to close the parameter list of query A, found '=>'",
    },
    {
      name: "unclosed type argument",
      text: "QUERY A() => x <- N<User RETURN x",
      code: "E001",
      line: 1,
      column: 26,
      message: "expected '>' to close the type argument of N, found 'RETURN'",
    },
    {
      name: "unclosed projection",
      text: "QUERY A() => x <- y::{a, b RETURN x",
      code: "E001",
      line: 1,
      column: 28,
      message: "expected ',', ':' or '}' to close the projection, found 'RETURN'",
    },
    {
      name: "unclosed FOR body",
      text: "QUERY A() => FOR x IN xs {\n  y <- x\n",
      code: "E005",
      line: 3,
      column: 1,
      message: "expected a statement, '::' or '}' to close the body of FOR (opened at line 1, column 26), found end of file",
    },
    {
      name: "keyword as object key",
      text: "QUERY A() => x <- AddN<User>({name: n, RETURN x",
      code: "E001",
      line: 1,
      column: 40,
      message: "expected an identifier or '}' to close the object, found 'RETURN'",
    },
    {
      name: "unknown edge entry",
      text: "E::F { From: User, Bad: X }",
      code: "E001",
      line: 1,
      column: 20,
      message: "expected 'From', 'Properties', 'To' or '}' to close the definition of E::F, found 'Bad'",
    },
    { name: "semicolon", text: "QUERY A() => x <- y; RETURN x", code: "E001", line: 1, column: 20, message: /found ';'$/ },
    {
      name: "unclosed list type",
      text: "QUERY A(a: [String) => RETURN a",
      code: "E001",
      line: 1,
      column: 19,
      message: "expected ']' to close the list, found ')'",
    },
    {
      name: "unclosed attribute",
      text: "#[mcp QUERY A() => RETURN a",
      code: "E001",
      line: 1,
      column: 7,
      message: "expected ']' to close the attribute, found 'QUERY'",
    },
    {
      name: "missing cast type",
      text: "MIGRATION schema::1 => schema::2 { N::User => _::{ a: a AS } }",
      code: "E001",
      line: 1,
      column: 60,
      message: "expected a type, found '}'",
    },
    {
      name: "empty RETURN",
      text: "QUERY A() => RETURN",
      code: "E005",
      line: 1,
      column: 20,
      message: "expected an expression, found end of file",
    },
    {
      name: "single-quoted string",
      text: "QUERY A() => x <- 'abc'",
      code: "E001",
      line: 1,
      column: 19,
      message: "expected an expression, found '''",
    },
    {
      name: "schema block item",
      text: "schema::1 { N::A {} QUERY",
      code: "E001",
      line: 1,
      column: 21,
      message: "expected an N::, E:: or V:: item or '}' to close the schema::1 block, found 'QUERY'",
    },
    { name: "missing =>", text: "QUERY A()\n  x <- 1", code: "E001", line: 2, column: 3, message: "expected '=>', found 'x'" },
    {
      name: "statement after RETURN",
      text: "QUERY A() =>\n  RETURN x\n  y <- 2",
      code: "E001",
      line: 3,
      column: 3,
      message: "expected a QUERY or schema definition, ',', '::' or end of file, found 'y'",
    },
    {
      name: "UNIQUE without INDEX",
      text: "N::A { UNIQUE name: String }",
      code: "E001",
      line: 1,
      column: 15,
      message: "expected 'INDEX', found 'name'",
    },
    { name: "space before type argument", text: "QUERY A() => x <- N <User>", code: "E001", line: 1, column: 21, message: /found '<'$/ },
    {
      name: "control character",
      text: "QUERY A() => x <- \u0001",
      code: "E001",
      line: 1,
      column: 19,
      message: "expected an expression, found the control character U+0001",
    },
    {
      name: "nothing after ::",
      text: "QUERY A() => x <- y::",
      code: "E005",
      line: 1,
      column: 22,
      message: "expected a step or projection, found end of file",
    },
    {
      name: "non-literal default",
      text: "N::A { x: I32 DEFAULT y }",
      code: "E001",
      line: 1,
      column: 23,
      message: "expected a literal, found 'y'",
    },
    {
      name: "missing comma between arguments",
      text: "QUERY A() => x <- f(a b)",
      code: "E001",
      line: 1,
      column: 23,
      message: /^expected ',', '::', .*'\)' to close the argument list of f, found 'b'$/,
    },
    {
      name: "empty destructure",
      text: "QUERY A() => FOR {} IN xs {}",
      code: "E001",
      line: 1,
      column: 19,
      message: "expected an identifier, found '}'",
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const d = parseErr(c.text);
      expect({ code: d.code, line: d.span.start.line, column: d.span.start.column }).toEqual({
        code: c.code,
        line: c.line,
        column: c.column,
      });
      if (typeof c.message === "string") expect(d.message).toBe(c.message);
      else expect(d.message).toMatch(c.message);
      expect(d.severity).toBe("error");
      expect(d.span.file).toBe(FILE);
    });
  }

  it("gives hints for common mistakes", () => {
    expect(parseErr("QUERY A() => x = 1").hint).toBe("assignments are written 'name <- expression'");
    expect(parseErr("query A() =>").hint).toBe("keywords are case-sensitive: did you mean 'QUERY'?");
    expect(parseErr("QUERY A() => x <- y;").hint).toMatch(/not terminated by ';'/);
    expect(parseErr("QUERY A() => x <- 'a'").hint).toMatch(/double quotes/);
    expect(parseErr("QUERY A(x I32) =>").hint).toBeUndefined();
    expect(parseErr("QUERY A() =>\n  RETURN x\n  y <- 2").hint).toBe("RETURN must come last in a query; move this statement before it");
    // a header without '=>' before a statement is not a statement after RETURN (audit 5 D12)
    const header = parseErr("QUERY B(name: String)\n    u <- N<User>\n    RETURN u\n");
    expect([header.code, header.span.start.line, header.span.start.column, header.message, header.hint]).toEqual([
      "E001",
      2,
      5,
      "expected '=>', found 'u'",
      "a query header ends with '=>' before its body: QUERY Name(params) =>",
    ]);
    expect(parseErr("QUERY B()\n    RETURN 1\n").hint).toBe("a query header ends with '=>' before its body: QUERY Name(params) =>");
    expect(parseErr("QUERY A(IN: I32) =>").hint).toBe("rename it, for example to 'in_'");
  });

  it("spans the offending token", () => {
    const d = parseErr("QUERY A() =>\n  x <- N<User>::RANGE(0, 10\nRETURN x");
    expect(d.span.start).toEqual({ offset: 41, line: 3, column: 1 });
    expect(d.span.end).toEqual({ offset: 47, line: 3, column: 7 });
    const s = parseErr('QUERY A() => x <- "abc');
    expect([s.span.start.column, s.span.end.column]).toEqual([19, 23]);
  });

  it("lists at most six expectations", () => {
    const d = parseErr("QUERY A() => x <- y;");
    const expectedPart = d.message.replace(/^expected /, "").replace(/, found .*$/, "");
    expect(expectedPart.split(/, | or /).length).toBeLessThanOrEqual(7);
    expect(d.message).toMatch(/more not shown/);
  });

  it("reports deep nesting without throwing", () => {
    const r = parseSource(`QUERY A() => x <- ${"[".repeat(200_000)}`, FILE);
    expect(r.ast).toBeNull();
    expect(r.diagnostics[0]!.code).toBe("E006");
    expect(r.diagnostics[0]!.message).toBe("nested more than 48 levels deep (the limit of HelixQL programs)");
    // at the 49th bracket, not at 1:1 (`QUERY A() => x <- ` is 18 characters)
    expect(r.diagnostics[0]!.span.start).toEqual({ offset: 18 + 48, line: 1, column: 19 + 48 });
  });

  it("never throws on non-string input", () => {
    const hostile = {
      toString: () => {
        throw new Error("no");
      },
    };
    for (const input of [undefined, null, 42, Symbol("s"), hostile, ["QUERY"]]) {
      const r = parseSource(input as unknown as string, hostile as unknown as string);
      expect(r.ast !== null || r.diagnostics.length > 0).toBe(true);
    }
  });
});

// ---------------------------------------------------------------- the generated parser

describe("generated parser", () => {
  it("is up to date with grammar.peggy and the build:parser script", () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as { scripts: Record<string, string> };
    const script = pkg.scripts["build:parser"] ?? "";
    expect(script).toMatch(/^peggy .*--format es .*-o compiler\/syntax\/parser\.generated\.js compiler\/syntax\/grammar\.peggy$/);
    const rules = /--allowed-start-rules (\S+)/.exec(script)?.[1]?.split(",") ?? [];
    expect(rules).toContain("SourceFile");
    const grammar = readFileSync(`${root}/compiler/syntax/grammar.peggy`, "utf8");
    const source = peggy.generate(grammar, { output: "source", format: "es", allowedStartRules: rules });
    const committed = readFileSync(`${root}/compiler/syntax/parser.generated.js`, "utf8");
    expect(source === committed, "compiler/syntax/parser.generated.js is stale: run `npm run build:parser`").toBe(true);
  });
});

// ---------------------------------------------------------------- performance

function bigFile(lines: number): string {
  const block = readFileSync(`${root}/test/fixtures/grammar/social.hx`, "utf8").replace(/\b(QUERY \w+)/g, "$1_N");
  const blockLines = block.split("\n").length;
  const parts: string[] = [];
  for (let i = 0; parts.length * blockLines < lines; i++) parts.push(block.replace(/_N\b/g, `_${i}`));
  return parts.join("\n");
}

// Speed is measured by `npm run bench` (compile times), never by timed unit tests; these pin that
// large and pathological inputs finish (vitest's timeout catches a hang) with the right outcome.
describe("large and pathological inputs", () => {
  it("parses a 2,000-line file", () => {
    const text = bigFile(2000);
    expect(text.split("\n").length).toBeGreaterThanOrEqual(2000);
    const r = parseSource(text, FILE);
    expect(r.diagnostics).toEqual([]);
    expect(r.ast).not.toBeNull();
  });

  it("rejects pathological invalid input with exactly one diagnostic", () => {
    const inputs = [
      `QUERY A() => x <- ${"f(".repeat(2000)}`,
      `QUERY A() => x <- ${"N<User>(".repeat(1500)}`,
      `QUERY A() => x <- ${"AddN<User>({a: ".repeat(800)}`,
      `QUERY A() => x <- ${"{a: [".repeat(1000)}`,
      `QUERY A() => x <- y${"::Out<E>".repeat(5000)}::`,
      `QUERY A() => x <- ${"_::{a: ".repeat(800)}`,
      `N::A { ${"a: {b: [".repeat(800)}`,
      `QUERY A() =>${" FOR x IN y {".repeat(800)}`,
      `QUERY A() => x <- ${"a, ".repeat(20000)}`,
    ];
    for (const text of inputs) {
      const r = parseSource(text, FILE);
      expect(r.ast).toBeNull();
      expect(r.diagnostics.length, text.slice(0, 40)).toBe(1);
    }
  });
});

// ---------------------------------------------------------------- fuzz

const FUZZ_TOKENS = [
  "QUERY",
  "RETURN",
  "FOR",
  "IN",
  "DROP",
  "NONE",
  "NOW",
  "INDEX",
  "UNIQUE",
  "DEFAULT",
  "MIGRATION",
  "AS",
  "true",
  "false",
  "N",
  "E",
  "V",
  "_",
  "schema",
  "From",
  "To",
  "Properties",
  "User",
  "x",
  "AddN",
  "WHERE",
  "COUNT",
  "Embed",
  "::",
  "<-",
  "=>",
  "..",
  "#[",
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  "<",
  ">",
  ",",
  ":",
  "?",
  "!",
  "|",
  "-",
  ".",
  '"',
  "\\",
  "0",
  "1.5",
  "-2e3",
  '"s"',
  '"\\u00e9"',
  "// c\n",
  "\n",
  " ",
  "\t",
  "@",
  ";",
  "é",
  "\u0000",
  "\r\n",
];

function checkResult(text: string, r: ReturnType<typeof parseSource>): void {
  if (r.ast !== null) {
    expect(r.diagnostics).toEqual([]);
    expect(r.ast.kind).toBe("SourceFile");
    return;
  }
  expect(r.diagnostics.length).toBeGreaterThanOrEqual(1);
  for (const d of r.diagnostics) {
    expect(d.code).toMatch(/^E0\d\d$/);
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.message.length).toBeLessThan(400);
    const { start, end } = d.span;
    expect(start.offset).toBeGreaterThanOrEqual(0);
    expect(end.offset).toBeGreaterThanOrEqual(start.offset);
    expect(end.offset).toBeLessThanOrEqual(text.length);
    const before = text.slice(0, start.offset).split("\n");
    expect(start.line).toBe(before.length);
    expect(start.column).toBe(before[before.length - 1]!.length + 1);
  }
}

describe("fuzz", () => {
  it("never throws and always returns an AST or a diagnostic (3000 seeded cases)", () => {
    const rand = prng(0x5eed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const corpus = [
      readFileSync(`${root}/test/fixtures/grammar/social.hx`, "utf8"),
      "QUERY A(p: String) => u <- N<User>({email: p})::{name, ..} RETURN u",
      "N::X { a: I32 DEFAULT -1, INDEX b: [String] } E::Y UNIQUE { From: X, To: X, Properties: { c: Date DEFAULT NOW } }",
      "MIGRATION schema::1 => schema::2 { N::A => _::{ a: a AS U32 } }",
      "QUERY B(xs: [{a: String}]) => FOR x IN xs { AddN<T>({a: x.a}) } RETURN NONE",
    ];
    const mutate = (s: string): string => {
      const i = Math.floor(rand() * (s.length + 1));
      const j = Math.min(s.length, i + Math.floor(rand() * 12));
      switch (Math.floor(rand() * 6)) {
        case 0:
          return s.slice(0, i) + s.slice(j); // delete a range
        case 1:
          return s.slice(0, i) + pick(FUZZ_TOKENS) + s.slice(i); // insert a token
        case 2:
          return s.slice(0, i) + s.slice(j, j + 1) + s.slice(i, j) + s.slice(j + 1); // move a char
        case 3:
          return s.slice(0, i); // truncate
        case 4:
          return s.slice(0, i) + s.slice(i, j) + s.slice(i, j) + s.slice(j); // duplicate
        default:
          return s.slice(0, i) + String.fromCharCode(Math.floor(rand() * 128)) + s.slice(j); // replace with a char
      }
    };
    let ok = 0;
    for (let n = 0; n < 3000; n++) {
      let text: string;
      if (n % 3 === 0) {
        const len = 1 + Math.floor(rand() * 40);
        text = Array.from({ length: len }, () => pick(FUZZ_TOKENS)).join(rand() < 0.5 ? " " : "");
      } else {
        text = pick(corpus);
        const rounds = 1 + Math.floor(rand() * 4);
        for (let k = 0; k < rounds; k++) text = mutate(text);
      }
      let r: ReturnType<typeof parseSource>;
      try {
        r = parseSource(text, "fuzz.hx");
      } catch (e) {
        throw new Error(`parseSource threw on case ${n}: ${JSON.stringify(text)}: ${String(e)}`);
      }
      checkResult(text, r);
      if (r.ast !== null) ok++;
    }
    // Some mutations keep the input valid; most do not.
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(3000);
  });
});
