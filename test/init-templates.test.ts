// `strand init` and its templates: --template, the default without a terminal (said so), the menu
// on a terminal, usage errors for an unknown template, never overwriting; the agent-memory
// template through init → check → serve → its queries (the calls of its README.md and of the next
// steps init prints, with their answers, and the typed-client snippet type-checked and run); the
// startup line naming the embedding model; and the README's vector example, run as written.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { askTemplate, TEMPLATE_PROMPT, templateMenu, templateOfAnswer } from "../cli/commands/init-prompt.js";
import { TEMPLATE_NAMES } from "../cli/commands/templates.js";
import { commandHelp } from "../cli/commands/usage.js";
import { DEFAULT_CONFIG } from "../cli/config/config-types.js";
import { embedderNotice, embedderNoticeLine } from "../cli/project/embedder-notice.js";
import { CLI, REPO_ROOT, SOCIAL_EXAMPLE, startStrand, tempDir, type StrandServer } from "./support/server.js";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function strand(args: string[], cwd: string, input?: string): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    timeout: 60_000,
    ...(input === undefined ? {} : { input }),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const work = tempDir("strand-init-");
const servers: StrandServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function serve(project: string): Promise<StrandServer> {
  const server = await startStrand({ project });
  servers.push(server);
  return server;
}

/** POST /<query> with a JSON body: the status and the answer's text, as sent. */
async function post(server: StrandServer, query: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/${query}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  return { status: res.status, text: await res.text() };
}

/** An answer as the docs write it: ids `0193…`, times `…` (both differ on every run). */
function asDocumented(text: string): string {
  return text
    .replace(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"0193…"')
    .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"/g, '"…"');
}

interface DocCall {
  query: string;
  body: string;
  /** The answer the doc shows on the next line (`# ...`), when it shows one. */
  answer?: string;
}

/** The calls of a doc's examples, each line a `call` match: query name and JSON body, then its answer if the next line is `# {...}`. */
function docCalls(text: string, call: RegExp): DocCall[] {
  const lines = text.split("\n");
  const calls: DocCall[] = [];
  lines.forEach((line, i) => {
    const match = call.exec(line);
    if (match === null) return;
    const next = lines[i + 1] ?? "";
    const answer = /^# ([[{n].*)$/.exec(next)?.[1];
    calls.push({ query: match[1]!, body: match[2]!, ...(answer === undefined ? {} : { answer }) });
  });
  return calls;
}

const TEMPLATES_DIR = join(REPO_ROOT, "templates");
const HASH_NOTE =
  'lexical: texts that share words are near, texts that mean the same in other words are not; for search by meaning set embedding_model in strand.toml, e.g. "openai:text-embedding-3-small" (with OPENAI_API_KEY)';

describe("strand init", () => {
  it("without --template and without a terminal, writes the social template and says how to choose", () => {
    const r = strand(["init", "graph"], work);
    expect(r).toEqual({
      status: 0,
      stdout:
        "template: social (the default; choose with --template social|agent-memory)\n" +
        "created graph/queries.hx, graph/schema.hx\n" +
        "next: strand check graph && strand serve graph\n",
      stderr: "",
    });
    expect(readdirSync(join(work, "graph")).sort()).toEqual(["queries.hx", "schema.hx"]);
    for (const f of ["queries.hx", "schema.hx"]) {
      expect(readFileSync(join(work, "graph", f), "utf8")).toBe(readFileSync(join(SOCIAL_EXAMPLE, f), "utf8"));
    }
    // Without vectors nothing embeds: mcp --stdio says nothing about an embedding model.
    const mcp = strand(["mcp", "--stdio", "graph"], work, "");
    expect({ status: mcp.status, stderr: mcp.stderr }).toEqual({
      status: 0,
      stderr: "strand: MCP over stdio (19 tools, data in graph/data)\n",
    });
  });

  it("run from a project's node_modules/.bin (npx strand), the next steps say npx strand", () => {
    const bin = join(work, "app", "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, "strand"));
    const r = spawnSync(process.execPath, [join(bin, "strand"), "init", "viaNpx", "--template", "social"], { cwd: work, encoding: "utf8" });
    expect({ status: r.status, last: r.stdout.trimEnd().split("\n").at(-1) }).toEqual({
      status: 0,
      last: "next: npx strand check viaNpx && npx strand serve viaNpx",
    });
  });

  it("an unknown or empty --template is a usage error naming the templates, and creates nothing", () => {
    const usage = "usage: strand init [dir] [options] (strand init --help lists them)\n";
    expect(strand(["init", "typo", "--template", "agent-memroy"], work)).toEqual({
      status: 2,
      stdout: "",
      stderr: `strand: unknown template "agent-memroy"; did you mean "agent-memory"? (templates: social, agent-memory)\n${usage}`,
    });
    expect(strand(["init", "typo", "--template=vectors"], work)).toEqual({
      status: 2,
      stdout: "",
      stderr: `strand: unknown template "vectors" (templates: social, agent-memory)\n${usage}`,
    });
    expect(strand(["init", "typo", "--template="], work)).toEqual({
      status: 2,
      stdout: "",
      stderr: `strand: --template needs a value\n${usage}`,
    });
    expect(strand(["init", "typo", "--tempalte", "social"], work)).toEqual({
      status: 2,
      stdout: "",
      stderr: `strand: unknown option --tempalte for strand init; did you mean --template?\n${usage}`,
    });
    expect(readdirSync(work)).not.toContain("typo");
    const help = commandHelp("init");
    for (const name of TEMPLATE_NAMES) expect(help).toContain(name);
  });

  it("refuses a directory with .hx files, and keeps a README.md it finds", () => {
    const taken = join(work, "taken");
    mkdirSync(taken);
    writeFileSync(join(taken, "app.hx"), "// mine\n");
    expect(strand(["init", "taken", "--template", "agent-memory"], work)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: taken already contains app.hx; refusing to overwrite (use an empty directory)\n",
    });
    expect(readdirSync(taken)).toEqual(["app.hx"]);

    const documented = join(work, "documented");
    mkdirSync(documented);
    writeFileSync(join(documented, "README.md"), "# mine\n");
    const r = strand(["init", "documented", "--template", "agent-memory"], work);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
    expect(r.stdout.split("\n").slice(0, 3)).toEqual([
      "template: agent-memory",
      "created documented/queries.hx, documented/schema.hx",
      "kept documented/README.md (the template's README.md was not copied)",
    ]);
    expect(readFileSync(join(documented, "README.md"), "utf8")).toBe("# mine\n");
  });

  it("on a terminal asks with a numbered menu: a number, a name, or Enter for the first", async () => {
    expect(templateMenu()).toBe(
      "Which template?\n" +
        "  1. social        a social graph: users, posts, weighted follows, 22 queries\n" +
        "  2. agent-memory  an agent's memory: vectors with Embed, vector, keyword and hybrid recall\n",
    );
    expect([" ", "1", "2", "agent-memory", "Social", "3", "0", "graph"].map((a) => templateOfAnswer(a)?.name)).toEqual([
      "social",
      "social",
      "agent-memory",
      "agent-memory",
      "social",
      undefined,
      undefined,
      undefined,
    ]);
    const ask = async (typed: string): Promise<{ name: string | undefined; shown: string }> => {
      const input = new PassThrough();
      const output = new PassThrough();
      let shown = "";
      output.setEncoding("utf8").on("data", (d: string) => (shown += d));
      const answer = askTemplate(input, output);
      input.end(typed);
      return { name: (await answer)?.name, shown };
    };
    expect(await ask("2\n")).toEqual({ name: "agent-memory", shown: `${templateMenu()}${TEMPLATE_PROMPT}` });
    expect(await ask("\n")).toEqual({ name: "social", shown: `${templateMenu()}${TEMPLATE_PROMPT}` });
    expect(await ask("7\nagent-memory\n")).toEqual({
      name: "agent-memory",
      shown: `${templateMenu()}${TEMPLATE_PROMPT}answer 1 to 2 or a name (social, agent-memory)\n${TEMPLATE_PROMPT}`,
    });
    // Ctrl-D before an answer: no template (init then creates nothing).
    expect(await ask("")).toEqual({ name: undefined, shown: `${templateMenu()}${TEMPLATE_PROMPT}\n` });
  });
});

describe("the agent-memory template: init → check → serve → its queries", () => {
  const project = join(work, "agent");
  let init: Run;
  beforeAll(() => {
    init = strand(["init", "agent", "--template", "agent-memory"], work);
  });

  it("init prints the next steps, check passes without warnings, and the template's README.md runs as written", async () => {
    expect(init).toEqual({
      status: 0,
      stdout: [
        "template: agent-memory",
        "created agent/README.md, agent/queries.hx, agent/schema.hx",
        "next: strand check agent && strand serve agent",
        "then, from another terminal:",
        `  curl -s localhost:6969/Remember -H 'content-type: application/json' -d '{"handle": "ada", "text": "Prefers green tea in the morning, never coffee", "entities": ["tea", "coffee"]}'`,
        `  curl -s localhost:6969/Remember -H 'content-type: application/json' -d '{"handle": "ada", "text": "Is writing a book about graph databases", "entities": ["book"]}'`,
        `  curl -s localhost:6969/HybridRecall -H 'content-type: application/json' -d '{"handle": "ada", "question": "what does she drink in the morning?", "k": 2}'`,
        "agent/README.md describes every query",
        "",
      ].join("\n"),
      stderr: "",
    });
    for (const f of ["README.md", "queries.hx", "schema.hx"]) {
      expect(readFileSync(join(project, f), "utf8")).toBe(readFileSync(join(TEMPLATES_DIR, "agent-memory", f), "utf8"));
    }
    expect(strand(["check", "."], project)).toEqual({ status: 0, stdout: "ok: 8 queries, 5 types\n", stderr: "" });

    const server = await serve(project);
    const logged = server
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.filter((l) => l.msg === "embedding model")).toEqual([
      { level: "info", time: expect.any(String), model: "hash", note: HASH_NOTE, msg: "embedding model" },
    ]);

    const readme = readFileSync(join(project, "README.md"), "utf8");
    const calls = docCalls(readme, /^q (\w+) '([^']*)'/);
    expect(calls.map((c) => c.query)).toEqual([
      "Remember",
      "Remember",
      "Remember",
      "Remember",
      "Recall",
      "KeywordRecall",
      "HybridRecall",
      "MemoriesAbout",
      "EntitiesOf",
      "MemoriesOf",
      "Forget",
      "MemoriesOf",
    ]);
    let remembered = "";
    for (const call of calls) {
      // `<id>` in the README stands for the memory the last Remember made (Bob's).
      const answer = await post(server, call.query, call.body.replace("<id>", remembered));
      expect({ call, status: answer.status }).toEqual({ call, status: 200 });
      if (call.query === "Remember") remembered = (JSON.parse(answer.text) as { memory: { id: string } }).memory.id;
      if (call.answer !== undefined) expect({ call, answer: asDocumented(answer.text) }).toEqual({ call, answer: call.answer });
    }
    // Recall is per user: Bob's memory (coffee) is not among Ada's keyword matches, and a stranger has none.
    expect(await post(server, "KeywordRecall", '{"handle": "bob", "words": "coffee", "k": 3}')).toEqual({
      status: 200,
      text: '{"memories":[]}',
    });
    expect(await post(server, "Recall", '{"handle": "eve", "question": "coffee", "k": 3}')).toEqual({
      status: 200,
      text: '{"memories":[]}',
    });
    expect(asDocumented((await post(server, "Forget", `{"id": "${remembered}"}`)).text)).toBe(
      `{"error":"V::Memory with id '${remembered}' not found","code":"NOT_FOUND"}`,
    );
  });

  it("answers the next steps init prints, and the README's typed client type-checks and runs", async () => {
    const gen = strand(["compile", ".", "--out", "generated"], project);
    expect({ status: gen.status, stderr: gen.stderr }).toEqual({ status: 0, stderr: "" });
    const server = await serve(project);
    const steps = docCalls(
      strand(["init", "again", "--template", "agent-memory"], work).stdout,
      /^ {2}curl -s localhost:6969\/(\w+) .* -d '([^']*)'$/,
    );
    expect(steps.map((s) => s.query)).toEqual(["Remember", "Remember", "HybridRecall"]);
    const answers: string[] = [];
    for (const step of steps) answers.push(asDocumented((await post(server, step.query, step.body)).text));
    expect(answers).toEqual([
      '{"memory":{"id":"0193…","text":"Prefers green tea in the morning, never coffee","created_at":"…"}}',
      '{"memory":{"id":"0193…","text":"Is writing a book about graph databases","created_at":"…"}}',
      '{"memories":[{"id":"0193…","text":"Prefers green tea in the morning, never coffee","score":0.03278688524590164},{"id":"0193…","text":"Is writing a book about graph databases","score":0.016129032258064516}]}',
    ]);

    // The README's TypeScript, against this server: strict type-check, then run it.
    const readme = readFileSync(join(project, "README.md"), "utf8");
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toContain('from "./generated/client.js"');
    writeFileSync(join(project, "example.ts"), snippet!.replace("http://localhost:6969", server.url));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", strict: true, noEmit: true, types: [] },
        files: ["example.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], {
      cwd: project,
      encoding: "utf8",
    });
    expect({ status: tsc.status, stdout: tsc.stdout }).toEqual({ status: 0, stdout: "" });
    // It remembers the tea memory a second time: both copies rank first in both searches (ties by id).
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import(/* @vite-ignore */ pathToFileURL(join(project, "example.ts")).href);
      expect(log.mock.calls).toEqual([
        [
          [
            "Prefers green tea in the morning, never coffee (0.03278688524590164)",
            "Prefers green tea in the morning, never coffee (0.03225806451612903)",
          ],
        ],
      ]);
    } finally {
      log.mockRestore();
    }
  });

  it("mcp --stdio names the embedding model on stderr; a model other than hash gets no note", () => {
    const first = strand(["mcp", "--stdio", "agent"], work, "");
    expect({ status: first.status, stderr: first.stderr }).toEqual({
      status: 0,
      stderr: `strand: MCP over stdio (19 tools, data in agent/data)\nstrand: embedding model: hash (${HASH_NOTE})\n`,
    });
    const local = join(work, "agent-local");
    expect(strand(["init", "agent-local", "--template", "agent-memory"], work).status).toBe(0);
    writeFileSync(join(local, "strand.toml"), 'embedding_model = "local"\n');
    const other = strand(["mcp", "--stdio", "agent-local"], work, "");
    expect({ status: other.status, stderr: other.stderr }).toEqual({
      status: 0,
      stderr: "strand: MCP over stdio (19 tools, data in agent-local/data)\nstrand: embedding model: local\n",
    });
  });
});

describe("the startup notice about the embedding model", () => {
  const noVectors = { nodes: [], vectors: [], edges: [] };

  it("is null without vectors, names #[model] models, and says where to set a real model", () => {
    expect(embedderNotice(DEFAULT_CONFIG, noVectors, [])).toBeNull();
    const viaQuery = embedderNotice(DEFAULT_CONFIG, noVectors, ["openai:text-embedding-3-small"]);
    expect(viaQuery).toEqual({ model: "hash", queryModels: ["openai:text-embedding-3-small"], note: HASH_NOTE });
    expect(embedderNoticeLine(viaQuery!)).toBe(
      `strand: embedding model: hash (${HASH_NOTE}); queries with #[model] use openai:text-embedding-3-small\n`,
    );
    const helix = { ...DEFAULT_CONFIG, file: "/p/helix.toml", section: "local.dev" };
    expect(embedderNotice(helix, noVectors, ["local"])?.note).toBe(HASH_NOTE.replace("in strand.toml", "in helix.toml [local.dev]"));
    const openai = { ...DEFAULT_CONFIG, file: "/p/strand.toml", embeddingModel: "openai:text-embedding-3-small" };
    expect(embedderNoticeLine(embedderNotice(openai, noVectors, ["local"])!)).toBe(
      "strand: embedding model: openai:text-embedding-3-small; queries with #[model] use local\n",
    );
  });
});

describe("the README's vector example", () => {
  it("checks, serves and answers as the README shows", async () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
    const at = blocks.findIndex((b) => b.text.startsWith("V::Note {"));
    expect(at).toBeGreaterThan(-1);
    const notes = join(work, "notes");
    mkdirSync(notes);
    writeFileSync(join(notes, "notes.hx"), blocks[at]!.text);
    expect(strand(["check", "notes"], work)).toEqual({ status: 0, stdout: "ok: 2 queries, 1 types\n", stderr: "" });
    const server = await serve(notes);
    const calls = docCalls(blocks[at + 1]!.text, /^curl -s localhost:6969\/(\w+) -H 'content-type: application\/json' -d '([^']*)'$/);
    expect(calls.map((c) => c.query)).toEqual(["AddNote", "AddNote", "AddNote", "SimilarNotes"]);
    for (const call of calls) {
      const answer = await post(server, call.query, call.body);
      expect({ call, status: answer.status }).toEqual({ call, status: 200 });
      if (call.answer !== undefined) expect({ call, answer: asDocumented(answer.text) }).toEqual({ call, answer: call.answer });
    }
    expect(calls.filter((c) => c.answer !== undefined)).toHaveLength(2);
  });
});
