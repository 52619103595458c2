// `strand query <url> [text]` against a real `strand serve` of the example: an expression, a body
// from stdin with --params, diagnostics with a caret (exit 1), --explain, and the usage errors.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, call, type StrandServer, startStrand, tempDir } from "./support/server.js";

function strandQuery(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, "query", ...args], { encoding: "utf8", ...(input === undefined ? {} : { input }) });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("strand query", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-cli-query-");
    server = await startStrand({ dataDir });
    await call(server, "AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints the answer of an expression as JSON, its value named result", () => {
    expect(strandQuery([server.url, "N<User>::RANGE(0, 10)::{handle, city}"])).toEqual({
      status: 0,
      stdout: `${JSON.stringify({ result: [{ handle: "ada", city: "London" }] }, null, 2)}\n`,
      stderr: "",
    });
  });

  it("reads a body from stdin, with --params", () => {
    expect(strandQuery([server.url, "--params", '{"c": "London"}'], "u <- N<User>::WHERE(_::{city}::EQ(c))::{name}\nRETURN u\n")).toEqual({
      status: 0,
      stdout: `${JSON.stringify({ u: [{ name: "Ada" }] }, null, 2)}\n`,
      stderr: "",
    });
  });

  it("prints diagnostics with the line and a caret, exit 1", () => {
    expect(strandQuery([server.url, "N<Usr>::RANGE(0, 10)"])).toEqual({
      status: 1,
      stdout: "",
      stderr: "query:1:3: error E101: unknown node type 'Usr'\n  N<Usr>::RANGE(0, 10)\n    ^\n  hint: did you mean 'User'?\n",
    });
    // An expression's errors are at its own end, not at the RETURN the server adds, and the
    // positions a message names are the text's own.
    expect(strandQuery([server.url, 'N<User>::WHERE(_::{city}::EQ("x")'])).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "query:1:34: error E001: expected ',', '::' or ')' to close the argument list of WHERE (opened at line 1, column 15), found the end of the query\n" +
        '  N<User>::WHERE(_::{city}::EQ("x")\n' +
        "                                   ^\n",
    });
    expect(strandQuery([server.url, "N<User>::RANGE(0, 3)::"])).toEqual({
      status: 1,
      stdout: "",
      stderr: "query:1:23: error E902: unknown step '::'\n  N<User>::RANGE(0, 3)::\n                        ^\n",
    });
  });

  it("explains instead of running with --explain", () => {
    const run = strandQuery([server.url, "--explain", "N<User>::WHERE(_::{city}::EQ(c))", "--params", '{"c": "x"}']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      params: [{ name: "c", type: { kind: "scalar", name: "String" }, optional: false }],
      writes: false,
      plan: [{ in: "result", step: "N<User> WHERE", access: "index", using: ["city EQ"], rows: 1 }],
    });
  });

  it("says what is wrong with its arguments", () => {
    expect(strandQuery([])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("strand query needs a server's URL, then the query (or the query on stdin)"),
    });
    expect(strandQuery(["localhost:6969", "x"])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('strand query: the first argument must be a server\'s http(s) URL, got "localhost:6969"'),
    });
    expect(strandQuery([server.url, "x", "--params", "[1]"])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("--params must be a JSON object"),
    });
  });
});
