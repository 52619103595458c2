// `strand shell`: its input rule and table renderer as units; its stdin mode against a real `strand
// serve` of the example (tables, --json, :schema, :queries, :params, :explain, diagnostics with a
// caret, the api key); a stopped store opened in process (read-only refuses a write, --write
// writes, a served directory is refused); and the REPL on a pseudo-terminal (util-linux `script`):
// prompts, the key asked for without echo, Ctrl-C, the history file.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommand } from "../cli/commands/args.js";
import { EntryReader, isComplete } from "../cli/shell/input.js";
import { cut, renderTable } from "../cli/shell/table.js";
import { CLI, call, REPO_ROOT, SOCIAL_EXAMPLE, type StrandServer, startStrand, tempDir } from "./support/server.js";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `strand shell ...args` with `input` as its stdin (a pipe: the stdin mode). */
function shell(args: string[], input: string, env: Record<string, string> = {}): Run {
  const { STRAND_API_KEY: _, ...inherited } = process.env;
  const run = spawnSync(process.execPath, [CLI, "shell", ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    input,
    env: { ...inherited, ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const LONG_NAME = "Alan Mathison Turing, mathematician and logician";

async function addUsers(server: StrandServer): Promise<void> {
  await call(server, "AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 });
  await call(server, "AddUser", { handle: "alan", name: LONG_NAME, city: "Wilmslow", age: 41 });
}

describe("the shell's input: one entry per query or command", () => {
  const entries = (lines: string[]): unknown[] => {
    const reader = new EntryReader();
    const out: unknown[] = [];
    for (const line of lines) {
      const entry = reader.push(line);
      if (entry !== null) out.push(entry);
    }
    const last = reader.flush();
    if (last !== null) out.push(last);
    return out;
  };
  const query = (text: string, explain = false) => ({ kind: "query", text, explain });

  it("ends an expression at its line once its brackets close, and a body or QUERY at its RETURN", () => {
    expect(
      entries([
        "N<User>::RANGE(0, 10)",
        "N<User>::WHERE(",
        '  _::{name}::EQ("a) (")',
        ")",
        "u <- N<User>",
        "// a comment: (",
        "RETURN u",
        "QUERY Q(a: I64) =>",
        "  x <- N<User>::RANGE(0, a)",
        "  RETURN {n: x::COUNT,",
        "    all: x}",
      ]),
    ).toEqual([
      query("N<User>::RANGE(0, 10)"),
      query('N<User>::WHERE(\n  _::{name}::EQ("a) (")\n)'),
      query("u <- N<User>\n// a comment: (\nRETURN u"),
      query("QUERY Q(a: I64) =>\n  x <- N<User>::RANGE(0, a)\n  RETURN {n: x::COUNT,\n    all: x}"),
    ]);
    expect(entries(["DROP N<User>(id)", "RETURN NONE", "FOR u IN users {", "}", "RETURN NONE"])).toEqual([
      query("DROP N<User>(id)\nRETURN NONE"),
      query("FOR u IN users {\n}\nRETURN NONE"),
    ]);
  });

  it("continues after \\, ends at ;, a blank line or the end of the input, and reads :commands", () => {
    expect(
      entries(["N<User>::\\", "COUNT", "x <- N<User>;", "y <- N<User>(", "", ':params {"a": 1}', ":explain N<User>", "u <- N<User>"]),
    ).toEqual([
      query("N<User>::\nCOUNT"),
      query("x <- N<User>"),
      query("y <- N<User>("),
      { kind: "command", name: "params", argument: '{"a": 1}' },
      query("N<User>", true),
      query("u <- N<User>"),
    ]);
    expect(entries([":explain", "u <- N<User>", "RETURN u", "  ", ":explain", ":quit", "N<User>"])).toEqual([
      query("u <- N<User>\nRETURN u", true),
      { kind: "command", name: "quit", argument: "" },
      query("N<User>"),
    ]);
    expect(isComplete("x <- N<User>(")).toBe(false);
    expect(isComplete("N<User>)")).toBe(true); // too many closed: the server says so
  });
});

describe("the shell's tables", () => {
  it("puts the rows' keys in columns, cuts wide values, right-aligns numbers", () => {
    expect(renderTable([{ a: "x", n: 1 }, { b: { c: [1, 2] }, n: 200 }, "bare"], 8)).toBe(
      [
        " a | n   | b        | value",
        "---+-----+----------+-------",
        " x |   1 |          |",
        '   | 200 | {"c":[1… |',
        "   |     |          | bare",
        "(3 rows)",
        "",
      ].join("\n"),
    );
    expect(renderTable([])).toBe("(0 rows)\n");
    expect(renderTable([{ s: "two\nlines" }])).toBe(" s\n------------\n two\\nlines\n(1 row)\n");
    expect(cut("abcdef", 4)).toBe("abc…");
    expect(cut("abcd", 4)).toBe("abcd");
  });
});

describe("strand shell's arguments", () => {
  it("takes a server's URL (default the local one) or a project with --data", () => {
    expect(parseCommand(["shell"], {})).toEqual({
      kind: "shell",
      target: { kind: "server", url: "http://127.0.0.1:6969", key: undefined },
      json: false,
    });
    expect(parseCommand(["shell", "http://h:1/", "--json"], { STRAND_API_KEY: "k" })).toEqual({
      kind: "shell",
      target: { kind: "server", url: "http://h:1", key: "k" },
      json: true,
    });
    expect(parseCommand(["shell", SOCIAL_EXAMPLE, "--data", "/tmp/d", "--write"], {})).toMatchObject({
      kind: "shell",
      target: { kind: "local", dir: SOCIAL_EXAMPLE, flags: { store: { dataDir: "/tmp/d" } }, write: true },
    });
    expect(() => parseCommand(["shell", "localhost:6969"], {})).toThrow(
      'a server\'s URL must be http(s)://host:port, got "localhost:6969"',
    );
    expect(() => parseCommand(["shell", "http://h:1", "--write"], {})).toThrow("--data and --write are for a stopped store");
    expect(() => parseCommand(["shell", ".", "--key", "k"], {})).toThrow("--key goes with a server's URL");
  });
});

describe("strand shell against a server, stdin from a pipe", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-cli-shell-");
    server = await startStrand({ dataDir });
    await addUsers(server);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints an answer as a table, wide values cut", () => {
    expect(shell([server.url], "N<User>::RANGE(0, 10)::{handle, name, age}\n")).toEqual({
      status: 0,
      stdout: [
        "result:",
        " handle | name                                     | age",
        "--------+------------------------------------------+-----",
        " ada    | Ada                                      |  36",
        " alan   | Alan Mathison Turing, mathematician and… |  41",
        "(2 rows)",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("prints the answer as it came with --json", () => {
    expect(shell([server.url, "--json"], "N<User>::RANGE(0, 10)::{handle, name}\n")).toEqual({
      status: 0,
      stdout: `${JSON.stringify(
        {
          result: [
            { handle: "ada", name: "Ada" },
            { handle: "alan", name: LONG_NAME },
          ],
        },
        null,
        2,
      )}\n`,
      stderr: "",
    });
  });

  it("lists the schema and the queries", () => {
    expect(shell([server.url], ":schema\n")).toEqual({
      status: 0,
      stdout: [
        "N::User { handle: String, name: String, city: String, age: U32, joined: Date }",
        "N::Post { title: String, body: String, likes: I64, created: Date }",
        "E::Follows (User -> User) { weight: F64, since: Date }",
        "E::Wrote (User -> Post) {}",
        "",
      ].join("\n"),
      stderr: "",
    });
    expect(shell([server.url], ":queries\n")).toEqual({
      status: 0,
      stdout: [
        "AddUser(handle: String, name: String, city: String, age: U32) -> user",
        "AdultsInOrder(min_age: U32) -> users",
        "CheapestRoute(from: ID, to: ID) -> paths",
        "CountByCity() -> groups",
        "CountUsers() -> total",
        "FewestHops(from: ID, to: ID) -> paths",
        "Follow(from: ID, to: ID, weight: F64) -> follows",
        "FollowEdges(id: ID) -> outgoing, incoming",
        "FollowEnds(edge: ID) -> follower, followed",
        "Followers(id: ID) -> users",
        "Following(id: ID) -> users",
        "FriendsOfFriends(id: ID) -> users",
        "GetUser(id: ID) -> user",
        "ListUsers(start: U32, end: U32) -> users",
        "OldestFollowed(id: ID) -> user",
        "PostsOf(id: ID) -> posts",
        "RenameUser(id: ID, name: String) -> user",
        "UserByHandle(handle: String) -> user",
        "UsersByCity() -> groups",
        "UsersByCityAndAge() -> groups",
        "UsersInCity(city: String) -> users",
        "WritePost(author: ID, title: String, body: String) -> post",
        "",
      ].join("\n"),
      stderr: "",
    });
    const json = shell([server.url, "--json"], ":schema\n");
    expect(JSON.parse(json.stdout)).toMatchObject({ nodes: [{ name: "User" }, { name: "Post" }], vectors: [] });
  });

  it("prints a diagnostic with its line and a caret on stderr, runs the rest, and exits 1", () => {
    expect(
      shell([server.url], "N<User>::COUNT\nu <- N<User>\n  ::WHERE(_::{age}::GT(min))\n  ::{handle}\nRETURN u\nN<User>::COUNT\n"),
    ).toEqual({
      status: 1,
      stdout: "result: 2\nresult: 2\n",
      stderr: `query:2:24: error E120: 'min' is not a parameter or variable of query 'query'\n    ::WHERE(_::{age}::GT(min))\n${" ".repeat(25)}^\n`,
    });
  });

  it("reads multi-line queries with :params for those that follow, and :explain", () => {
    const input = [
      ':params {"min": 40, "city": "London"}',
      "QUERY Older(min: U32) =>",
      "    users <- N<User>::WHERE(_::{age}::GT(min))::{handle}",
      "    RETURN users",
      "N<User>::WHERE(",
      "  _::{city}::EQ(city)",
      ")::{handle, city}",
      "N<User>::COUNT;",
      ":explain u <- N<User>::WHERE(_::{city}::EQ(city))",
      "RETURN u",
      ":params",
      "",
    ].join("\n");
    expect(shell([server.url], input)).toEqual({
      status: 0,
      stdout: [
        "users:",
        " handle",
        "--------",
        " alan",
        "(1 row)",
        "result:",
        " handle | city",
        "--------+--------",
        " ada    | London",
        "(1 row)",
        "result: 2",
        "params: city: String",
        "writes: no",
        "plan:",
        " in | step          | access | using   | rows",
        "----+---------------+--------+---------+------",
        " u  | N<User> WHERE | index  | city EQ |    1",
        "(1 row)",
        '{"min":40,"city":"London"}',
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("says what is wrong with a command, and exits 1", () => {
    expect(shell([server.url], ":schem\n:params [1]\n:json\nN<User>::COUNT\n")).toEqual({
      status: 1,
      stdout: `answers as JSON\n${JSON.stringify({ result: 2 }, null, 2)}\n`,
      stderr:
        "strand: unknown command :schem; did you mean :schema? (:help lists them)\n" +
        'strand: :params takes a JSON object, e.g. :params {"city": "London"}\n',
    });
  });

  it("says when the server cannot be reached", () => {
    const run = shell(["http://127.0.0.1:9"], "N<User>::COUNT\n");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^strand: cannot reach http:\/\/127\.0\.0\.1:9: .+\n$/);
  });
});

describe("strand shell on a stopped store (the project opened in process)", () => {
  let dataDir: string;
  let server: StrandServer | undefined;
  const grace = 'u <- AddN<User>({handle: "grace", name: "Grace", city: "NYC", age: 85})::{handle}\nRETURN u\n';

  beforeAll(async () => {
    dataDir = tempDir("strand-cli-shell-local-");
    server = await startStrand({ dataDir });
    await addUsers(server);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses a directory a server serves", async () => {
    const run = shell([SOCIAL_EXAMPLE, "--data", dataDir, "--write"], "N<User>::COUNT\n");
    expect(run).toMatchObject({ status: 1, stdout: "" });
    expect(run.stderr).toContain(`data directory ${dataDir} is in use by process ${server!.child.pid}; stop that server first`);
    await server!.stop();
    server = undefined;
  });

  it("reads, and refuses a write without --write", () => {
    expect(shell([SOCIAL_EXAMPLE, "--data", dataDir], `N<User>::{handle}\n${grace}`)).toEqual({
      status: 1,
      stdout: "result:\n handle\n--------\n ada\n alan\n(2 rows)\n",
      stderr: `strand: 403 WRITE_FORBIDDEN: the shell opened ${dataDir} read-only: start it with --write to write (while no server serves it)\n`,
    });
  });

  it("opens no new store read-only: a mistyped --data is an error, not an empty graph", () => {
    const missing = join(dataDir, "..", "no-such-store");
    expect(shell([SOCIAL_EXAMPLE, "--data", missing], "N<User>::COUNT\n")).toEqual({
      status: 1,
      stdout: "",
      stderr: `strand: no store in ${missing}: a read-only shell opens an existing one (--write creates it)\n`,
    });
  });

  it("writes with --write, and the write is there after", () => {
    expect(shell([SOCIAL_EXAMPLE, "--data", dataDir, "--write"], grace)).toEqual({
      status: 0,
      stdout: "u:\n handle\n--------\n grace\n(1 row)\n",
      stderr: "",
    });
    expect(shell([SOCIAL_EXAMPLE, "--data", dataDir, "--json"], "N<User>::{handle}\n")).toEqual({
      status: 0,
      stdout: `${JSON.stringify({ result: [{ handle: "ada" }, { handle: "alan" }, { handle: "grace" }] }, null, 2)}\n`,
      stderr: "",
    });
  });
});

/** What readline writes to move the cursor: ESC [ params letter. */
const CURSOR_MOVES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, "g");

/** util-linux `script`: runs a command on a pseudo-terminal, its own stdin and stdout passed through. */
const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

describe("strand shell on a terminal", () => {
  const KEY = "shell-test-key-0123456789";
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    // Needs a real part .ci/run installs: absent, the test fails saying so rather than skipping.
    if (!hasScript) throw new Error("no `script` found: install Debian's bsdutils; .ci/run installs it, and CI must run this test");
    dataDir = tempDir("strand-cli-shell-tty-");
    server = await startStrand({ dataDir, extraArgs: ["--api-key", KEY] });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("tells a script without the key how to give it", () => {
    const run = shell([server.url], "N<User>::COUNT\n");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^strand: 401 UNAUTHORIZED: .+\n {2}give the server's api key with --key or STRAND_API_KEY\n$/);
    expect(shell([server.url], "N<User>::COUNT\n", { STRAND_API_KEY: KEY })).toEqual({ status: 0, stdout: "result: 0\n", stderr: "" });
  });

  it("asks for the key unechoed, prompts for the rest of a query, drops it on Ctrl-C, keeps the history", async () => {
    const history = join(dataDir, "history");
    const { STRAND_API_KEY: _, ...inherited } = process.env;
    const command = [process.execPath, CLI, "shell", server.url].map((a) => `'${a}'`).join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: REPO_ROOT,
      env: { ...inherited, STRAND_HISTORY: history },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    const waiters: (() => void)[] = [];
    const onData = (d: string): void => {
      // What the terminal shows, without readline's cursor moves and the terminal's \r.
      screen += d;
      screen = screen.replace(CURSOR_MOVES, "").replace(/\r/g, "");
      for (const w of [...waiters]) w();
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);
    /** Resolves once the screen ends with `tail`. */
    const shown = (tail: string): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (!screen.endsWith(tail)) return;
          waiters.splice(waiters.indexOf(check), 1);
          resolve();
        };
        waiters.push(check);
        check();
      });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const ask = "the server needs an api key (Enter without one: give up): ";

    await shown(ask);
    child.stdin.write("wrong-key\r");
    await shown(`${ask}\n${ask}`);
    child.stdin.write(`${KEY}\r`);
    await shown("strand> ");
    child.stdin.write("N<User>::WHERE(\r");
    await shown("   ...> ");
    child.stdin.write("_::{age}::GT(40))::COUNT\r");
    await shown("result: 0\nstrand> ");
    child.stdin.write("N<User>::RANGE(\r");
    await shown("   ...> ");
    child.stdin.write("0, 1\x03");
    await shown("0, 1^C\nstrand> ");
    child.stdin.write(":quit\r");
    expect(await exited).toBe(0);
    expect(screen).toBe(
      `${ask}\n${ask}\n` +
        `connected to ${server.url}: 22 queries; :help lists the commands\n` +
        "strand> N<User>::WHERE(\n   ...> _::{age}::GT(40))::COUNT\nresult: 0\n" +
        "strand> N<User>::RANGE(\n   ...> 0, 1^C\n" +
        "strand> :quit\n",
    );
    expect(existsSync(history)).toBe(true);
    expect(readFileSync(history, "utf8")).toBe("N<User>::WHERE(\n_::{age}::GT(40))::COUNT\nN<User>::RANGE(\n:quit\n");
  });
});
