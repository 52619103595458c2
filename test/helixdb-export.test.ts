// examples/helixdb-export: generate.mjs writes paged export queries from a project's schema (with
// Strand's compiler, ignoring the project's queries), and export.mjs turns their answers into
// Strand's JSONL interchange format. Tested against Strand itself serving the generated queries:
// it speaks HelixDB v2's wire protocol.
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { EdgeItem, NodeItem } from "../core/items.js";
import { REPO_ROOT, call, startStrand, tempDir, type StrandServer } from "./support/server.js";

const TOOL = path.join(REPO_ROOT, "examples/helixdb-export");
const work = tempDir("strand-helixdb-export-");
const servers: StrandServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

const SCHEMA = `N::User { UNIQUE INDEX handle: String, nick: String, age: U32, joined: Date DEFAULT NOW }
V::Doc { title: String, tags: [String] }
E::Follows { From: User, To: User, Properties: { weight: F64, since: Date DEFAULT NOW } }
`;
// The project's own queries; one uses a step Strand does not know, which generate.mjs must not mind.
const QUERIES = `QUERY AddUser(handle: String, age: U32) =>
    user <- AddN<User>({handle: handle, age: age})
    RETURN user

QUERY AddNick(handle: String, nick: String, age: U32) =>
    user <- AddN<User>({handle: handle, nick: nick, age: age})
    RETURN user

QUERY AddDoc(vec: [F64], title: String, tags: [String]) =>
    doc <- AddV<Doc>(vec, {title: title, tags: tags})
    RETURN doc

QUERY Follow(from: ID, to: ID, weight: F64) =>
    follows <- AddE<Follows>({weight: weight})::From(from)::To(to)
    RETURN follows
`;

const EXPORT_HX = `// Export queries for moving this project's data to Strand, generated from its schema by
// Strand's examples/helixdb-export/generate.mjs: deploy them with the project, then run export.mjs.
// Each returns the records of one type from \`start\` (inclusive) to \`end\` (exclusive).

QUERY StrandExportN_User(start: U32, end: U32) =>
    items <- N<User>::RANGE(start, end)
    RETURN items

QUERY StrandExportV_Doc(start: U32, end: U32) =>
    items <- V<Doc>::RANGE(start, end)
    RETURN items

QUERY StrandExportE_Follows(start: U32, end: U32) =>
    items <- E<Follows>::RANGE(start, end)
    RETURN items
`;

function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: work, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("examples/helixdb-export", () => {
  it("generates export queries from the schema and exports every record as interchange JSONL", async () => {
    const project = path.join(work, "db");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "schema.hx"), SCHEMA);
    fs.writeFileSync(path.join(project, "queries.hx"), `${QUERIES}\nQUERY Odd() =>\n    u <- N<User>::NOT_A_STEP\n    RETURN u\n`);

    expect(node([path.join(TOOL, "generate.mjs"), "db"])).toEqual({
      status: 0,
      stdout: "wrote 3 export queries to db/strand-export.hx and the plan to strand-export.json\n",
      stderr: "",
    });
    expect(fs.readFileSync(path.join(project, "strand-export.hx"), "utf8")).toBe(EXPORT_HX);
    expect(JSON.parse(fs.readFileSync(path.join(work, "strand-export.json"), "utf8"))).toEqual({
      format: "strand-helixdb-export",
      version: 1,
      types: [
        { kind: "N", label: "User", query: "StrandExportN_User", fields: ["handle", "nick", "age", "joined"] },
        { kind: "V", label: "Doc", query: "StrandExportV_Doc", fields: ["title", "tags"] },
        { kind: "E", label: "Follows", query: "StrandExportE_Follows", fields: ["weight", "since"] },
      ],
    });

    // Serve the project (its own queries, without the one Strand refuses) with the export queries.
    fs.writeFileSync(path.join(project, "queries.hx"), QUERIES);
    const server = await startStrand({ project, extraArgs: ["--api-key", "k1"] });
    servers.push(server);
    const key = { "x-api-key": "k1" };
    const post = async <T>(query: string, params: unknown, name: string): Promise<T> => {
      const r = await call(server, query, params, key);
      expect(r.status).toBe(200);
      return (r.body as Record<string, T>)[name]!;
    };
    const ann = await post<NodeItem>("AddUser", { handle: "ann", age: 31 }, "user");
    const bob = await post<NodeItem>("AddNick", { handle: "bob", nick: "B", age: 40 }, "user");
    const cy = await post<NodeItem>("AddUser", { handle: "cy", age: 7 }, "user");
    const doc = await post<NodeItem>("AddDoc", { vec: [0.5, 0.25, 1], title: "Intro", tags: ["a", "b"] }, "doc");
    const f1 = await post<EdgeItem>("Follow", { from: ann.id, to: bob.id, weight: 2 }, "follows");
    const f2 = await post<EdgeItem>("Follow", { from: cy.id, to: ann.id, weight: 0.5 }, "follows");

    const expected = [
      { kind: "N", label: "User", id: ann.id, handle: "ann", age: 31, joined: ann.joined },
      { kind: "N", label: "User", id: bob.id, handle: "bob", nick: "B", age: 40, joined: bob.joined },
      { kind: "N", label: "User", id: cy.id, handle: "cy", age: 7, joined: cy.joined },
      { kind: "V", label: "Doc", id: doc.id, data: [0.5, 0.25, 1], title: "Intro", tags: ["a", "b"] },
      { kind: "E", label: "Follows", id: f1.id, from: ann.id, to: bob.id, weight: 2, since: f1.since },
      { kind: "E", label: "Follows", id: f2.id, from: cy.id, to: ann.id, weight: 0.5, since: f2.since },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join("");

    // Pages of 2 (the three users take two pages); to a file, and to stdout.
    const exportArgs = [path.join(TOOL, "export.mjs"), "--url", server.url, "--api-key", "k1", "--page", "2"];
    const run = promisify(execFile);
    const toFile = await run(process.execPath, [...exportArgs, "--out", "data.jsonl"], { cwd: work });
    expect(toFile).toEqual({ stdout: "", stderr: "exported 6 records of 3 types\n" });
    expect(fs.readFileSync(path.join(work, "data.jsonl"), "utf8")).toBe(expected);
    expect(fs.existsSync(path.join(work, "data.jsonl.partial"))).toBe(false);
    expect(await run(process.execPath, exportArgs, { cwd: work })).toEqual({ stdout: expected, stderr: "exported 6 records of 3 types\n" });

    // Without the key: the server's 401 stops the export, naming the query; no file is left.
    const refused = node([path.join(TOOL, "export.mjs"), "--url", server.url, "--out", "nokey.jsonl"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^export\.mjs: POST \/StrandExportN_User \{"start":0,"end":1000\}: HTTP 401: /);
    expect(fs.existsSync(path.join(work, "nokey.jsonl"))).toBe(false);
    expect(await server.stop()).toBe(0);
  }, 120_000);

  it("maps HelixDB's answers: nulls and a vector's score left out, missing vector data refused", async () => {
    const { toInterchange } = (await import(path.join(TOOL, "export.mjs"))) as {
      toInterchange: (type: unknown, record: unknown) => unknown;
    };
    const user = { kind: "N", label: "User", query: "q", fields: ["handle", "nick"] };
    expect(toInterchange(user, { id: "u1", label: "User", nick: null, handle: "h", extra: 1 })).toEqual({
      kind: "N",
      label: "User",
      id: "u1",
      handle: "h",
    });
    const doc = { kind: "V", label: "Doc", query: "q", fields: ["title"] };
    expect(JSON.stringify(toInterchange(doc, { id: "d1", label: "Doc", data: [1.0, 2], score: 2.0, title: "t" }))).toBe(
      '{"kind":"V","label":"Doc","id":"d1","data":[1,2],"title":"t"}',
    );
    expect(() => toInterchange(doc, { id: "d2", label: "Doc", title: "t" })).toThrow(
      `V::Doc 'd2': the answer holds no vector ("data"), so it cannot be exported`,
    );
    const edge = { kind: "E", label: "Follows", query: "q", fields: [] };
    expect(() => toInterchange(edge, { id: "e1", label: "Follows" })).toThrow("E::Follows 'e1': the answer has no from_node/to_node");
    // Fields named like envelope members travel as $name: they must not overwrite the kind or an endpoint.
    const person = { kind: "N", label: "Person", query: "q", fields: ["kind", "from"] };
    expect(toInterchange(person, { id: "p1", label: "Person", kind: "human", from: "Oslo" })).toEqual({
      kind: "N",
      label: "Person",
      id: "p1",
      $kind: "human",
      from: "Oslo",
    });
    const worksAt = { kind: "E", label: "WorksAt", query: "q", fields: ["from", "to", "role"] };
    expect(
      toInterchange(worksAt, { id: "w1", label: "WorksAt", from_node: "a", to_node: "b", from: "2020-01-01", to: "now", role: "r" }),
    ).toEqual({ kind: "E", label: "WorksAt", id: "w1", from: "a", to: "b", $from: "2020-01-01", $to: "now", role: "r" });
  });

  it("names the URL and the cause when HelixDB cannot be reached, and leaves no file", async () => {
    // A port nothing listens on: one just freed.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const plan = { format: "strand-helixdb-export", version: 1, types: [{ kind: "N", label: "User", query: "ExportUsers", fields: [] }] };
    fs.writeFileSync(path.join(work, "down-plan.json"), JSON.stringify(plan));
    const url = `http://127.0.0.1:${port}`;
    const r = node([path.join(TOOL, "export.mjs"), "--plan", "down-plan.json", "--url", url, "--out", "down.jsonl"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `export.mjs: cannot reach ${url}/ExportUsers: connect ECONNREFUSED 127.0.0.1:${port} (is HelixDB serving at --url ${url}?)\n`,
    );
    expect(fs.existsSync(path.join(work, "down.jsonl"))).toBe(false);
    expect(fs.existsSync(path.join(work, "down.jsonl.partial"))).toBe(false);
  });

  it("says what is wrong with a schema it cannot read", () => {
    const bad = path.join(work, "bad");
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, "schema.hx"), "N::User { name: Strin }\n");
    const r = node([path.join(TOOL, "generate.mjs"), "bad", "--plan", "bad.json"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^generate\.mjs: bad\/schema\.hx:1:17: error E103: unknown type 'Strin'/);
    expect(node([path.join(TOOL, "generate.mjs"), "nowhere"])).toEqual({
      status: 1,
      stdout: "",
      stderr: "generate.mjs: nowhere is not a folder\n",
    });
    expect(node([path.join(TOOL, "generate.mjs"), "."])).toEqual({ status: 1, stdout: "", stderr: "generate.mjs: no .hx files in .\n" });
  }, 120_000);
});
