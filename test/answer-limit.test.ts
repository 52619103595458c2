// The answer limit (issue 37 finding 8): an answer past answer_limit bytes of JSON is refused with
// 400 RESULT_TOO_LARGE naming its size and the limit, before any of it is sent; below it, answers
// are what they were. The default is 256 MiB; 0 takes none. An answer streamed in chunks (past
// V8's longest string, allowed only with a larger limit) errs once it passes the limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryModule } from "../core/query-module.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { DEFAULT_ANSWER_LIMIT_BYTES, jsonStream } from "../server/http/json-answer.js";
import { createApp } from "../server/index.js";
import { parseCommand } from "../cli/commands/args.js";
import { GraphStore } from "../runtime/graph-store.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const schema: SchemaDescriptor = { nodes: [], vectors: [], edges: [] };
const echoText: QueryModule = {
  name: "Echo",
  params: [{ name: "text", type: { kind: "scalar", name: "String" }, optional: false }],
  writes: false,
  mcp: false,
  returns: ["text"],
  run: (_db, params) => ({ text: params.text }),
};
let store: GraphStore;
let dir: string;
beforeAll(() => {
  dir = tempDir("strand-answer-limit-");
  store = GraphStore.open({ path: dir, schema });
});
afterAll(async () => {
  await store.close();
  removeDir(dir);
});
const LIMIT_HINT =
  "ask for fewer items (RANGE) or fields (::{..}), or raise the limit: answer_limit under [server] in strand.toml, strand serve --answer-limit or STRAND_ANSWER_LIMIT";

async function echo(limit: number | undefined, text: string): Promise<{ status: number; body: unknown }> {
  const app = createApp({ store, queries: [echoText], schema, ...(limit === undefined ? {} : { answerLimitBytes: limit }) });
  const res = await app.request("/Echo", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
  return { status: res.status, body: await res.json() };
}

describe("the answer limit", () => {
  it("refuses an answer past it, counting bytes of UTF-8, and passes one at it", async () => {
    // {"text":"…"} is 11 bytes around the text.
    expect(await echo(100, "a".repeat(89))).toEqual({ status: 200, body: { text: "a".repeat(89) } });
    expect(await echo(100, "a".repeat(90))).toEqual({
      status: 400,
      body: { error: `the answer is 101 bytes of JSON, over the answer limit of 100 bytes; ${LIMIT_HINT}`, code: "RESULT_TOO_LARGE" },
    });
    // 30 characters of two bytes each: 71 bytes, though only 41 characters.
    expect(await echo(70, "é".repeat(30))).toEqual({
      status: 400,
      body: { error: `the answer is 71 bytes of JSON, over the answer limit of 70 bytes; ${LIMIT_HINT}`, code: "RESULT_TOO_LARGE" },
    });
    expect(await echo(0, "a".repeat(10_000))).toEqual({ status: 200, body: { text: "a".repeat(10_000) } });
    expect(await echo(undefined, "a".repeat(10_000))).toEqual({ status: 200, body: { text: "a".repeat(10_000) } });
  });

  it("is 256 MiB unless set; strand serve takes --answer-limit (0: none)", () => {
    expect(DEFAULT_ANSWER_LIMIT_BYTES).toBe(256 * 1024 * 1024);
    expect(parseCommand(["serve", "--answer-limit", "64MiB"], {}).kind === "serve").toBe(true);
    const flags = (parseCommand(["serve", "--answer-limit", "64MiB"], {}) as { flags: { server: { answerLimitBytes?: number } } }).flags;
    expect(flags.server.answerLimitBytes).toBe(64 * 1024 * 1024);
    const none = (parseCommand(["serve"], { STRAND_ANSWER_LIMIT: "0" }) as { flags: { server: { answerLimitBytes?: number } } }).flags;
    expect(none.server.answerLimitBytes).toBe(0);
  });

  it("cuts a streamed answer off with the error once it passes the limit", async () => {
    const value = { items: Array.from({ length: 4 }, () => "x".repeat(1 << 20)) };
    const reader = jsonStream(value, 2 << 20).getReader();
    let received = 0;
    let failure: unknown;
    try {
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        received += chunk.length;
      }
    } catch (error) {
      failure = error;
    }
    expect(received).toBeLessThanOrEqual(2 << 20);
    expect((failure as Error).message).toBe(
      `the answer is more than ${2 << 20} bytes of JSON, over the answer limit of ${2 << 20} bytes; ${LIMIT_HINT}`,
    );
  });
});
