// StrandSaver against LangGraph's own conformance suite, @langchain/langgraph-checkpoint-validation,
// run unchanged (its `validate`, which registers its tests with the runner's globals) over a real
// `strand serve --memory true`. Each checkpointer the suite creates starts from an empty store:
// the threads the last one left are deleted first, through the saver itself.
import { rmSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } from "vitest";
import { StrandSaver } from "../langgraph/index.js";
import { type StrandServer, startStrand, tempDir } from "./support/server.js";

// The suite calls describe/it/expect as globals (its CLI runs vitest with globals on).
Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test });
const { validate } = await import("@langchain/langgraph-checkpoint-validation");

let server: StrandServer | undefined;
let dataDir: string | undefined;

async function emptied(saver: StrandSaver): Promise<StrandSaver> {
  const threads = new Set<string>();
  for await (const tuple of saver.list({})) threads.add(tuple.config.configurable?.thread_id as string);
  for (const thread of threads) await saver.deleteThread(thread);
  return saver;
}

validate({
  checkpointerName: "StrandSaver",
  beforeAllTimeout: 120_000,
  async beforeAll() {
    dataDir = tempDir("strand-langgraph-saver-");
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
  },
  async afterAll() {
    await server?.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  },
  createCheckpointer: () => emptied(new StrandSaver({ url: server!.url })),
});
