// The shape of generated code on hot paths: FOR loops index their array (no iterator or
// [index, element] pair per iteration), and math calls pass only the items per call, their
// sources being one module constant per distinct text.
import { describe, expect, it } from "vitest";
import { compileProject } from "../compiler/index.js";

function generated(text: string, query: string): string {
  const result = compileProject([{ file: "q.hx", text }]);
  expect(result.diagnostics).toEqual([]);
  return result.files.find((f) => f.path === `queries/${query}.ts`)!.text;
}

describe("generated hot paths", () => {
  it("FOR is an indexed loop that names its element in errors", () => {
    const code = generated(
      [
        "N::Doc { title: String }",
        "N::Chunk { text: String }",
        "QUERY Ingest(docs: [{title: String, chunks: [{text: String}]}]) =>",
        "    FOR {title, chunks} IN docs {",
        "        AddN<Doc>({title: title})",
        "        FOR chunk IN chunks {",
        "            AddN<Chunk>({text: chunk.text})",
        "        }",
        "    }",
        "    FOR doc IN docs {",
        "        AddN<Doc>({title: doc.title})",
        "    }",
        "    RETURN NONE",
        "",
      ].join("\n"),
      "Ingest",
    );
    expect(code).not.toContain(".entries()");
    expect(code).toContain("for (let $i0 = 0, $a0 = params.docs; $i0 < $a0.length; $i0++) {");
    expect(code).toContain("const { title, chunks } = $a0[$i0];");
    expect(code).toContain("for (let $i1 = 0, $a1 = chunks; $i1 < $a1.length; $i1++) {");
    expect(code).toContain("const chunk = $a1[$i1];");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: generated code, as text
    expect(code).toContain("throw db.atElement($error, `docs[${$i0}].chunks[${$i1}]`);");
  });

  it("math sources are module constants, shared by equal call sites; only the item is passed per call", () => {
    const code = generated(
      [
        "N::C { UNIQUE INDEX k: String, n: I64, m: I64 }",
        "QUERY Bump(k: String) =>",
        "    c <- N<C>({k: k})",
        "    d <- N<C>({k: k})::UPDATE({n: ADD(_::{n}, c::{m}), m: SUB(_::{n}, c::{m})})",
        "    e <- N<C>({k: k})::UPDATE({n: MUL(2, c::{m})})",
        "    RETURN d, e",
        "",
      ].join("\n"),
      "Bump",
    );
    expect(code).toContain('const $math0 = [{ text: "_::{n}", kind: "N" }, { text: "c::{m}", kind: "N" }] as const;');
    expect(code).toContain('const $math1 = [null, { text: "c::{m}", kind: "N" }] as const;');
    expect(code).not.toContain("$math2");
    expect(code).toContain('db.math("ADD", [(db.prop(it0, "n") as number | null), (db.prop(c, "m") as number | null)], $math0, it0, c)');
    expect(code).toContain('db.math("SUB", [(db.prop(it0, "n") as number | null), (db.prop(c, "m") as number | null)], $math0, it0, c)');
    expect(code).toContain('db.math("MUL", [2, (db.prop(c, "m") as number | null)], $math1, null, c)');
    expect(code).not.toMatch(/text: "[^"]*", item:/);
  });

  it("COUNT and EXISTS of Out/In/OutE/InE chains count adjacency (countAdjacent) and read no record; other steps keep the traversal", () => {
    const code = generated(
      [
        "N::U { name: String }",
        "E::F { From: U, To: U }",
        "QUERY Q(id: ID) =>",
        "    a <- N<U>(id)::Out<F>::Out<F>::COUNT",
        "    b <- N<U>::WHERE(_::OutE<F>::ToN::COUNT::GT(2))",
        "    c <- N<U>::WHERE(EXISTS(_::In<F>::InE<F>))",
        '    d <- N<U>(id)::Out<F>::WHERE(_::{name}::EQ("x"))::COUNT',
        "    e <- N<U>(id)::OutE<F>::FromN::COUNT",
        "    f <- N<U>(id)::OutE<F>::ToN::Out<F>::COUNT",
        "    RETURN a, b, c, d, e, f",
        "",
      ].join("\n"),
      "Q",
    );
    expect(code).toContain('const $steps0 = [["out", "F"], ["out", "F"]] as const;');
    expect(code).toContain('const $steps1 = [["out", "F"]] as const;');
    expect(code).toContain('const $steps2 = [["in", "F"], ["in", "F"]] as const;');
    expect(code).not.toContain("$steps3");
    expect(code).toContain('const a = db.countAdjacent([(db.nodeById("U", params.id) as U)], $steps0);');
    expect(code).toContain('db.nodesWhere("U", (it0) => db.compare("GT", db.countAdjacent([it0], $steps1), 2))');
    expect(code).toContain('db.nodesWhere("U", (it0) => (db.countAdjacent([it0], $steps2, 1) > 0))');
    expect(code).toContain('const d = db.count(db.filter((db.out([(db.nodeById("U", params.id) as U)], "F") as U[])');
    expect(code).toContain('const e = db.count((db.fromN((db.outE([(db.nodeById("U", params.id) as U)], "F") as F[])) as U[]));');
    expect(code).toContain('const f = db.countAdjacent([(db.nodeById("U", params.id) as U)], $steps0);');
  });
});
