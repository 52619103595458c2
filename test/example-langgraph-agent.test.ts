// examples/langgraph-agent end to end: the LangGraph.js agent run as a user runs it (a node process
// per turn, importing `strand/langgraph` by the package's name) against a real `strand serve
// --memory true`, restarted halfway: a thread's turns come back from StrandSaver, a user's facts
// from StrandStore in another thread, and another user's memory stays apart.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, type StrandServer, startStrand, tempDir } from "./support/server.js";

const AGENT = join(REPO_ROOT, "examples/langgraph-agent/agent.mjs");

describe("examples/langgraph-agent", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-langgraph-agent-");
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const say = (user: string, thread: string, text: string): string => {
    const run = spawnSync(process.execPath, [AGENT, user, thread, ...text.split(" ")], {
      cwd: REPO_ROOT,
      env: { ...process.env, STRAND_URL: server.url },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    return run.stdout;
  };

  it("remembers across runs and restarts, per thread and per user", async () => {
    expect(say("ada", "t1", "remember my favourite colour is green")).toBe("noted: my favourite colour is green\nturns in thread t1: 1\n");
    expect(say("ada", "t1", "remember I live in Lisbon")).toBe("noted: I live in Lisbon\nturns in thread t1: 2\n");
    await server.stop();
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
    expect(say("ada", "t2", "what is my favourite colour")).toBe("you told me: my favourite colour is green\nturns in thread t2: 1\n");
    expect(say("ada", "t2", "where do I live")).toBe("you told me: I live in Lisbon\nturns in thread t2: 2\n");
    expect(say("ada", "t1", "where do I live")).toBe("you told me: I live in Lisbon\nturns in thread t1: 3\n");
    expect(say("bob", "t3", "what is my favourite colour")).toBe("I know nothing about you yet\nturns in thread t3: 1\n");
  });
});
