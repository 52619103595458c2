// examples/agent-memory end to end: a real `strand serve` of the example, driven over HTTP through
// a small story of temporal facts (Alice works at Acme from T1; at T2 that fact is invalidated and
// "Alice works at Initech" begins), every answer compared as exact JSON with the ids the writes
// returned. Times are parameters, so the answers are fixed; FactsNow compares with the wall clock,
// and the story's times all lie before today and its open ends in 9999, so it answers the same any
// day. Then the README's "Agent memory in five minutes": its TypeScript, type-checked and run as
// written against a fresh server with the typed client `strand compile` makes, printing what the
// README says it prints, and its curl calls on the data that leaves, answering as shown.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { formatWithOptions } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLI, REPO_ROOT, call, startStrand, tempDir, type StrandServer } from "./support/server.js";

const PROJECT = join(REPO_ROOT, "examples/agent-memory");
const OPEN = "9999-12-31T00:00:00.000Z";
const T_BERLIN = "2023-06-01T00:00:00.000Z";
const T1 = "2024-01-15T09:00:00.000Z";
const T1_5 = "2024-08-01T00:00:00.000Z";
const T2 = "2025-03-01T10:00:00.000Z";
const T3 = "2025-06-01T00:00:00.000Z";
const EPISODE_1 = "Alice: I have lived in Berlin since June 2023, and today I started as an engineer at Acme.";
const EPISODE_2 = "Alice: I left Acme; today was my first day at Initech.";

/** The reply's `body[key].id`, after checking the call succeeded. */
function idOf(reply: { status: number; body: unknown }, key: string): string {
  expect(reply.status).toBe(200);
  return ((reply.body as Record<string, { id: string }>)[key] as { id: string }).id;
}

describe("examples/agent-memory: temporal facts over HTTP", () => {
  let server: StrandServer;
  beforeAll(async () => {
    server = await startStrand({ project: PROJECT });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps invalidated facts, and answers what is true now, at T, and recall at T", async () => {
    const q = (query: string, params: unknown) => call(server, query, params);

    // ---- T1: the first episode, its entities, its facts.
    const ep1Reply = await q("AddEpisode", { text: EPISODE_1, source: "chat", created_at: "2024-01-15T09:00:00Z" });
    const ep1 = idOf(ep1Reply, "episode");
    expect(ep1Reply.body).toEqual({ episode: { id: ep1, label: "Episode", text: EPISODE_1, source: "chat", created_at: T1 } });

    const alice = await q("UpsertEntity", { episode: ep1, name: "Alice", type: "person", summary: "An engineer who lives in Berlin" });
    const aliceId = idOf(alice, "entity");
    expect(alice.body).toEqual({
      entity: { id: aliceId, label: "Entity", name: "Alice", type: "person", summary: "An engineer who lives in Berlin" },
    });
    const berlinEntity = await q("UpsertEntity", { episode: ep1, name: "Berlin", type: "city" });
    expect(berlinEntity.body).toEqual({ entity: { id: idOf(berlinEntity, "entity"), label: "Entity", name: "Berlin", type: "city" } });
    const acmeId = idOf(await q("UpsertEntity", { episode: ep1, name: "Acme", type: "company" }), "entity");
    // Upserted by name: the same node; a field left out is kept; the mention is not doubled.
    expect((await q("UpsertEntity", { episode: ep1, name: "Alice" })).body).toEqual(alice.body);

    const berlinReply = await q("AddFact", {
      episode: ep1,
      subject: "Alice",
      relation: "LIVES_IN",
      object: "Berlin",
      fact: "Alice lives in Berlin",
      valid_at: "2023-06-01",
      created_at: T1,
    });
    const berlin = idOf(berlinReply, "edge");
    const acmeReply = await q("AddFact", {
      episode: ep1,
      subject: "Alice",
      relation: "WORKS_AT",
      object: "Acme",
      fact: "Alice works at Acme as an engineer",
      valid_at: T1,
      created_at: T1,
    });
    const acme = idOf(acmeReply, "edge");
    expect(acmeReply.body).toEqual({
      edge: {
        id: acme,
        label: "Fact",
        from_node: aliceId,
        to_node: acmeId,
        relation: "WORKS_AT",
        fact: "Alice works at Acme as an engineer",
        valid_at: T1,
        invalid_at: OPEN,
        created_at: T1,
        expired_at: OPEN,
        episode: ep1,
      },
    });
    const livesInBerlin = {
      id: berlin,
      subject: "Alice",
      relation: "LIVES_IN",
      object: "Berlin",
      fact: "Alice lives in Berlin",
      valid_at: T_BERLIN,
      invalid_at: OPEN,
    };
    const worksAtAcme = {
      id: acme,
      subject: "Alice",
      relation: "WORKS_AT",
      object: "Acme",
      fact: "Alice works at Acme as an engineer",
      valid_at: T1,
      invalid_at: OPEN,
    };
    expect((await q("FactsNow", { entity: "Alice" })).body).toEqual({ outgoing: [livesInBerlin, worksAtAcme], incoming: [] });

    // ---- T2: the second episode ends the Acme fact and starts the Initech one.
    const ep2 = idOf(await q("AddEpisode", { text: EPISODE_2, source: "chat", created_at: T2 }), "episode");
    expect((await q("UpsertEntity", { episode: ep2, name: "Alice", summary: "An engineer at Initech who lives in Berlin" })).body).toEqual({
      entity: { id: aliceId, label: "Entity", name: "Alice", type: "person", summary: "An engineer at Initech who lives in Berlin" },
    });
    const initechEntity = await q("UpsertEntity", { episode: ep2, name: "Initech", type: "company" });
    expect(initechEntity.body).toEqual({
      entity: { id: idOf(initechEntity, "entity"), label: "Entity", name: "Initech", type: "company" },
    });
    expect((await q("UpsertEntity", { episode: ep2, name: "Acme" })).body).toEqual({
      entity: { id: acmeId, label: "Entity", name: "Acme", type: "company" },
    });
    const ended = { ...worksAtAcme, invalid_at: T2 };
    expect((await q("InvalidateFact", { id: acme, invalid_at: T2, expired_at: T2 })).body).toEqual({
      fact: { ...(acmeReply.body as { edge: object }).edge, invalid_at: T2, expired_at: T2 },
    });
    const initech = idOf(
      await q("AddFact", {
        episode: ep2,
        subject: "Alice",
        relation: "WORKS_AT",
        object: "Initech",
        fact: "Alice works at Initech",
        valid_at: T2,
        created_at: T2,
      }),
      "edge",
    );
    const worksAtInitech = {
      id: initech,
      subject: "Alice",
      relation: "WORKS_AT",
      object: "Initech",
      fact: "Alice works at Initech",
      valid_at: T2,
      invalid_at: OPEN,
    };

    // ---- What is true now: only the current job.
    expect((await q("FactsNow", { entity: "Alice" })).body).toEqual({ outgoing: [livesInBerlin, worksAtInitech], incoming: [] });
    expect((await q("FactsNow", { entity: "Acme" })).body).toEqual({ outgoing: [], incoming: [] });
    expect((await q("FactsNow", { entity: "Initech" })).body).toEqual({ outgoing: [], incoming: [worksAtInitech] });

    // ---- What was true at T: the old job between T1 and T2 (invalid_at is exclusive), nothing before Berlin.
    expect((await q("FactsAt", { entity: "Alice", t: T1_5 })).body).toEqual({ outgoing: [livesInBerlin, ended], incoming: [] });
    expect((await q("FactsAt", { entity: "Acme", t: T1_5 })).body).toEqual({ outgoing: [], incoming: [ended] });
    expect((await q("FactsAt", { entity: "Alice", t: T2 })).body).toEqual({ outgoing: [livesInBerlin, worksAtInitech], incoming: [] });
    expect((await q("FactsAt", { entity: "Alice", t: T3 })).body).toEqual({ outgoing: [livesInBerlin, worksAtInitech], incoming: [] });
    expect((await q("FactsAt", { entity: "Alice", t: "2023-01-01" })).body).toEqual({ outgoing: [], incoming: [] });

    // ---- Recall at T: only facts valid at T, the one about work first.
    const recalled = (fact: { id: string; fact: string; object: string; valid_at: string; invalid_at: string }, score: number) => ({
      fact_id: fact.id,
      fact: fact.fact,
      about: [{ name: "Alice" }, { name: fact.object }],
      valid_at: fact.valid_at,
      invalid_at: fact.invalid_at,
      score,
    });
    // RRF scores, the sum of 1/(60 + rank) over the three rankings (words, meaning, the facts of
    // the entities named): first, first and second; second, second and first; first in all three.
    const FIRST = 0.04891591750396616;
    const SECOND = 0.048651507139079855;
    const ONLY = 0.04918032786885246;
    const work = "Where does Alice work?";
    expect((await q("RecallAt", { question: work, t: T1_5, k: 3 })).body).toEqual({
      facts: [recalled(ended, FIRST), recalled(livesInBerlin, SECOND)],
    });
    expect((await q("RecallAt", { question: work, t: T3, k: 3 })).body).toEqual({
      facts: [recalled(worksAtInitech, FIRST), recalled(livesInBerlin, SECOND)],
    });
    expect((await q("RecallAt", { question: work, t: T3, k: 1 })).body).toEqual({ facts: [recalled(worksAtInitech, FIRST)] });
    expect((await q("RecallAt", { question: work, t: "2023-09-01", k: 3 })).body).toEqual({ facts: [recalled(livesInBerlin, ONLY)] });
    expect((await q("RecallAt", { question: "Where does Alice live?", t: T3, k: 1 })).body).toEqual({
      facts: [recalled(livesInBerlin, ONLY)],
    });

    // ---- The full listing keeps the ended fact, with both its times and its episode.
    expect((await q("FactHistory", { entity: "Alice" })).body).toEqual({
      facts: [
        { ...livesInBerlin, created_at: T1, expired_at: OPEN, episode: ep1 },
        { ...ended, created_at: T1, expired_at: T2, episode: ep1 },
        { ...worksAtInitech, created_at: T2, expired_at: OPEN, episode: ep2 },
      ],
    });

    // ---- Provenance both ways.
    expect((await q("Provenance", { id: acme })).body).toEqual(ep1Reply.body);
    expect((await q("FromEpisode", { episode: ep1 })).body).toEqual({
      facts: [
        { id: berlin, relation: "LIVES_IN", fact: "Alice lives in Berlin", valid_at: T_BERLIN, invalid_at: OPEN },
        { id: acme, relation: "WORKS_AT", fact: "Alice works at Acme as an engineer", valid_at: T1, invalid_at: T2 },
      ],
      entities: [{ name: "Alice" }, { name: "Berlin" }, { name: "Acme" }],
    });
    expect((await q("FromEpisode", { episode: ep2 })).body).toEqual({
      facts: [{ id: initech, relation: "WORKS_AT", fact: "Alice works at Initech", valid_at: T2, invalid_at: OPEN }],
      entities: [{ name: "Alice" }, { name: "Initech" }, { name: "Acme" }],
    });

    // ---- A fact between names that are no entities is refused, and writes nothing.
    expect(
      await q("AddFact", { episode: ep2, subject: "Alice", relation: "KNOWS", object: "Bob", fact: "Alice knows Bob", valid_at: T2 }),
    ).toEqual({
      status: 404,
      body: { error: 'AddE<Fact>::To(to): to is empty (N<Entity>({name: "Bob"}) found nothing)', code: "NOT_FOUND" },
    });
    expect(await q("InvalidateFact", { id: ep1, invalid_at: T3, expired_at: T3 })).toEqual({
      status: 404,
      body: { error: `E::Fact with id '${ep1}' not found`, code: "NOT_FOUND" },
    });
    expect((await q("FactHistory", { entity: "Alice" })).body).toMatchObject({ facts: { length: 3 } });
  });
});

describe('the README\'s "Agent memory in five minutes"', () => {
  const work = tempDir("strand-agent-memory-");
  let server: StrandServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("type-checks and runs as written, printing what it says, and its curl calls answer as shown", async () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const section = /\n## Agent memory in five minutes\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? "";
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    const printed = /```ts\n[\s\S]*?```\n\n```\n([\s\S]*?)```/.exec(section)?.[1];
    expect(snippet).toContain('from "./generated/client.js"');
    expect(section).toContain("npx strand compile examples/agent-memory --out examples/agent-memory/generated\n");

    const gen = spawnSync(process.execPath, [CLI, "compile", PROJECT, "--out", join(work, "generated")], { encoding: "utf8" });
    expect({ status: gen.status, stderr: gen.stderr }).toEqual({ status: 0, stderr: "" });
    server = await startStrand({ project: PROJECT });
    writeFileSync(join(work, "story.ts"), snippet!.replace("http://localhost:6969", server.url));
    writeFileSync(
      join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", strict: true, noEmit: true, types: [] },
        files: ["story.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], {
      cwd: work,
      encoding: "utf8",
    });
    expect({ status: tsc.status, stdout: tsc.stdout }).toEqual({ status: 0, stdout: "" });

    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import(/* @vite-ignore */ pathToFileURL(join(work, "story.ts")).href);
      const lines = log.mock.calls.map((args) => formatWithOptions({ colors: false }, ...args));
      expect(`${lines.join("\n")}\n`).toBe(printed);
    } finally {
      log.mockRestore();
    }

    // Then its curl calls, on the data the story left: each answer as shown, ids written `0193…`.
    const shell = /```sh\nq\(\) \{[\s\S]*?```/.exec(section)?.[0] ?? "";
    const lines = shell.split("\n");
    const calls = lines.flatMap((line, i) => {
      const match = /^q (\w+) '([^']*)'/.exec(line);
      return match === null ? [] : [{ query: match[1]!, body: match[2]!, answer: /^# (\{.*)$/.exec(lines[i + 1] ?? "")?.[1] }];
    });
    expect(calls.map((c) => [c.query, c.answer !== undefined])).toEqual([
      ["FactsNow", true],
      ["FactsAt", true],
      ["RecallAt", true],
      ["FactHistory", false],
    ]);
    for (const c of calls) {
      const res = await fetch(`${server.url}/${c.query}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: c.body,
      });
      const text = (await res.text()).replace(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"0193…"');
      expect({ call: c.query, status: res.status }).toEqual({ call: c.query, status: 200 });
      if (c.answer !== undefined) expect({ call: c.query, answer: text }).toEqual({ call: c.query, answer: c.answer });
      else
        expect(JSON.parse(text)).toMatchObject({
          facts: [{ relation: "LIVES_IN" }, { object: "Acme", invalid_at: T2, expired_at: T2 }, { object: "Initech" }],
        });
    }
  }, 120_000); // a compile, a server start and a tsc run: well under 30 s alone, more beside a loaded suite
});
