// The conformance driver itself (test/conformance/README.md): the case format's parser, the
// matching of expected JSON with placeholders, and the update mode's rewrite of a case file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyEdits, parseCaseFile } from "./support/case-file.js";
import { newBindings, reconcile } from "./support/case-json.js";
import { runCase } from "./support/case-runner.js";

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "strand-case-format-"));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const dataDir = (): string => fs.mkdtempSync(path.join(tmpRoot, "db-"));

const PROJECT = `--- hx
N::User { UNIQUE INDEX name: String }
QUERY AddUser(name: String) =>
    user <- AddN<User>({name: name})
    RETURN user
QUERY Users() =>
    users <- N<User>::{name}
    RETURN users`;

describe("parsing", () => {
  it("reads every kind of step with its line, path and body", () => {
    const c = parseCaseFile(
      `# title\n${PROJECT}\n--- call AddUser {"name": "a"}\n--- expect\n{"user": "$a"}\n--- mcp filter_items\n{"x":\n  1}\n--- expect 400\nnull\n--- reopen\n--- schema change\nN::User { name: String }\n--- refused\nno\n`,
      "t.case",
    );
    expect(c.title).toBe("title");
    expect(c.steps.map((s) => (s.kind === "call" ? `${s.line} ${s.path} ${s.body} ${s.expect.status}` : `${s.line} ${s.kind}`))).toEqual([
      `10 /AddUser {"name": "a"} 200`,
      `13 /mcp/filter_items {"x":\n  1} 400`,
      "18 reopen",
      "19 schema change",
    ]);
    const change = c.steps[3];
    expect(change?.kind === "schema change" ? [change.hx, change.refused?.message] : null).toEqual(["N::User { name: String }", "no"]);
    expect([...c.names]).toEqual(["$a"]);
  });

  it.each([
    ["# t\n--- call Q\n--- call R\n--- expect\n1", "t.case:3: the --- call on line 2 has no --- expect"],
    ["# t\n--- call Q", "t.case: the last --- call has no --- expect"],
    ["# t\n--- call mcp/init\n--- expect\n1", "t.case:2: 'mcp/init' is not a query or tool name"],
    ["# t\n--- reopen\n--- refused\nx", "t.case:3: --- refused must follow a --- schema change"],
    ["# t\n--- reopen\n--- hx\nN::A { x: String }", "t.case:3: --- hx after the first call; replace the project with --- schema change"],
    ["# t\n--- expected\n1", "t.case:2: unknown section 'expected'"],
    ["--- reopen", "t.case: the first line must be '# <what this case pins down>'"],
  ])("rejects a malformed file: %j", (text, message) => {
    expect(() => parseCaseFile(text, "t.case")).toThrow(message);
  });
});

describe("matching", () => {
  it("keeps the placeholders that match and writes what differs as an expectation", () => {
    const bindings = newBindings();
    const id = "01234567-89ab-7def-8123-456789abcdef";
    const other = "01234567-89ab-7def-8123-456789abcde0";
    expect(reconcile({ id: "$a", n: 1 }, { id, n: 1 }, bindings)).toEqual({ value: { id: "$a", n: 1 }, mismatch: null });
    expect(reconcile({ error: "no {$a}", score: "$~0.5" }, { error: `no ${id}`, score: 0.5 + 1e-15 }, bindings).mismatch).toBeNull();
    expect(reconcile({ id: "$a", n: 1, list: [1] }, { id, n: 2, list: [1, other], extra: `see ${id}` }, bindings)).toEqual({
      value: { id: "$a", n: 2, list: [1, "$id1"], extra: "see {$a}" },
      mismatch: "$: expected members [id, n, list] in that order, got [id, n, list, extra]",
    });
  });
});

describe("running and updating", () => {
  it("names the file and line of a wrong expectation, and the update rewrites exactly it", async () => {
    const text = `# t\n${PROJECT}\n--- call AddUser {"name": "a"}\n--- expect\n{"user": {"id": "$a", "label": "User", "name": "a"}}\n--- reopen\n--- call AddUser {"name": "a"}\n--- expect\nnull\n--- call Users\n--- expect\n{"users": [{"name": "b"}]}\n`;
    const checks = await runCase(parseCaseFile(text, "t.case"), "t.case", dataDir());
    expect(checks.map((c) => [c.where, c.mismatch])).toEqual([
      ["t.case:10 POST /AddUser", null],
      ["t.case:14 POST /AddUser", "status 409, expected 200"],
      ["t.case:17 POST /Users", '$.users[0].name: expected "b", got "a"'],
    ]);
    const updated = applyEdits(
      text,
      checks.filter((c) => c.mismatch !== null).map((c) => c.edit),
    );
    expect(updated.split("\n").slice(14)).toEqual([
      "--- expect 409",
      `{"error": "UNIQUE INDEX violated: N::User field 'name' already has value \\"a\\"", "code": "UNIQUE_VIOLATION"}`,
      "--- call Users",
      "--- expect",
      `{"users": [{"name": "a"}]}`,
      "",
    ]);
    const again = await runCase(parseCaseFile(updated, "t.case"), "t.case", dataDir());
    expect(again.map((c) => c.mismatch)).toEqual([null, null, null]);
  });

  it("adds a refusal where an open is refused, removes one where it succeeds, and pins diagnostics in full", async () => {
    const text = `# t\n${PROJECT}\n--- call AddUser {"name": "a"}\n--- expect\n{"user": {"id": "$a", "label": "User", "name": "a"}}\n--- schema change\nN::User { name: U32 }\n--- call Users\n--- expect\nnull\n`;
    const checks = await runCase(parseCaseFile(text, "t.case"), "t.case", dataDir());
    expect(checks.map((c) => c.mismatch)).toEqual([
      null,
      "the open was refused, expected it to succeed",
      '$: expected null, got {"users":[{"name":"a"}]}',
    ]);
    const updated = applyEdits(
      text,
      checks.filter((c) => c.mismatch !== null).map((c) => c.edit),
    );
    expect(updated.split("\n")[14]).toBe("--- refused");
    expect(updated.split("\n")[15]).toMatch(/^N::User \{\$a\}: 'name' must be an integer/);
    const again = await runCase(parseCaseFile(updated, "t.case"), "t.case", dataDir());
    expect(again.map((c) => c.mismatch)).toEqual([null, null, null]);

    const opened = `# t\n${PROJECT}\n--- schema change\n${PROJECT.slice("--- hx\n".length)}\n--- refused\nno\n--- call Users\n--- expect\n{"users": []}\n`;
    const [change] = await runCase(parseCaseFile(opened, "t.case"), "t.case", dataDir());
    expect(applyEdits(opened, [change!.edit])).toBe(opened.replace("--- refused\nno\n", ""));

    const diag = `# t\n--- hx\nN::User { nme: Strin }\n--- diagnostics\nE103 1:16\n`;
    const [check] = await runCase(parseCaseFile(diag, "t.case"), "t.case", dataDir());
    expect(check!.mismatch).toBeNull();
    const wrong = diag.replace("1:16", "1:15");
    const [failed] = await runCase(parseCaseFile(wrong, "t.case"), "t.case", dataDir());
    expect(failed!.mismatch).toBe("the errors differ");
    expect(applyEdits(wrong, [failed!.edit])).toBe(
      diag.replace(
        "E103 1:16",
        "E103 1:16 unknown type 'Strin'\n  hint: use String, Boolean, I8..I64, U8..U128, F32, F64, ID, Date, [T] or {field: T}",
      ),
    );
  });
});
