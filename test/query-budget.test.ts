// The query time limit covers everything a request does (issue 37 finding 7): the embedding
// calls between a query's attempts spend the same budget as the attempts (a provider that does
// not answer is abandoned when the time is up, 503 QUERY_TIMEOUT, nothing written), the hash
// embedder looks at the limit per word, and a write's document tokens and postings tick it up to
// the commit, so a huge text no longer runs seconds past the limit.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { StrandError } from "../core/errors.js";
import { hashEmbedding } from "../runtime/embed/hash.js";
import { localEmbedder } from "../runtime/embed/local.js";
import { GraphStore } from "../runtime/graph-store.js";
import { QueryBudget } from "../runtime/query/query-deadline.js";
import { openHxApp } from "./support/hx-app.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { vectorSchema } from "./support/vector-fixtures.js";

const LIMIT = "The limit is set by query_timeout_ms under [server] in strand.toml, strand serve --query-timeout or STRAND_QUERY_TIMEOUT";
const timedOut = (ms: number, writes: boolean) => ({
  error: `the query ran longer than the time limit of ${ms} ms and was stopped${writes ? "; nothing it wrote was kept" : ""}. ${LIMIT}`,
  code: "QUERY_TIMEOUT",
});

describe("QueryBudget", () => {
  it("is spent by each part it runs, thrown or not, and refuses the next part once spent", async () => {
    let now = 0;
    const budget = new QueryBudget(100, true, () => now);
    const first = budget.spend(() => {
      now += 60;
      return "first";
    });
    expect(first).toBe("first");
    expect(budget.remainingMs).toBe(40);
    expect(() =>
      budget.spend(() => {
        now += 30;
        throw new Error("failed part");
      }),
    ).toThrow("failed part");
    expect(budget.remainingMs).toBe(10);
    await budget.spendAsync(async () => {
      now += 15;
    });
    let refused: unknown;
    try {
      budget.spend(() => "never");
    } catch (error) {
      refused = error;
    }
    expect((refused as StrandError).toJSON()).toEqual(timedOut(100, true));
    expect(new QueryBudget(0, false).remainingMs).toBe(0);
  });
});

describe("the hash embedder", () => {
  it("looks at the query's limit at every word", () => {
    let looks = 0;
    hashEmbedding("one two three, four", () => looks++);
    expect(looks).toBe(4);
  });
});

describe("a write's document under the time limit", () => {
  let dir: string;
  let store: GraphStore;
  beforeAll(() => {
    dir = tempDir("strand-budget-");
    store = GraphStore.open({ path: dir, schema: vectorSchema, queryTimeoutMs: 100 });
  });
  afterAll(async () => {
    await store.close();
    removeDir(dir);
  });

  it("ticks at the document's tokens: one record with a long text stops, and nothing of it is kept", async () => {
    // A clock that moves a second at every look: the first look stops the write. The one record
    // written ticks once (fewer than one look); its 200 tokens make the difference.
    let clock = 0;
    const now = vi.spyOn(performance, "now").mockImplementation(() => (clock += 1_000));
    const name = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
    try {
      await expect(store.write((db) => db.addNode("Author", { name }))).rejects.toThrow(timedOut(100, true).error);
    } finally {
      now.mockRestore();
    }
    expect(store.read((db) => db.nodesByLabel("Author").length)).toBe(0);
    expect(store.read((db) => db.searchBM25("Author", "w7", 10).length)).toBe(0);
    await store.write((db) => db.addNode("Author", { name }));
    expect(store.read((db) => db.searchBM25("Author", "w7", 10).length)).toBe(1);
  });
});

describe("an embedding provider that does not answer", () => {
  let embedServer: Server;
  let url: string;
  const requests: IncomingMessage[] = [];
  const closed: Promise<void>[] = [];
  beforeAll(async () => {
    // Takes each request and never answers; notes when the client gives up on it.
    embedServer = createServer((req) => {
      requests.push(req);
      closed.push(new Promise((done) => req.socket.once("close", () => done())));
    });
    await new Promise<void>((done) => embedServer.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(embedServer.address() as AddressInfo).port}/embed`;
  });
  afterAll(async () => {
    embedServer.closeAllConnections();
    await new Promise((done) => embedServer.close(done));
  });

  it("is abandoned when the query's time is up: 503 QUERY_TIMEOUT, the request closed, nothing written", async () => {
    const hx = `V::Doc { text: String }
QUERY AddDoc(text: String) =>
    d <- AddV<Doc>(Embed(text), {text: text})
    RETURN d::{id}
QUERY Docs() =>
    d <- V<Doc>::{id}
    RETURN d
`;
    // The provider's own timeout is a minute: only the query's limit (300 ms) can end the wait.
    const app = await openHxApp(hx, { embedders: () => localEmbedder(url, 60_000) }, { queryTimeoutMs: 300 });
    try {
      expect(await app.post("/AddDoc", { text: "remember the milk" })).toEqual({ status: 503, body: timedOut(300, true) });
      expect(requests.length).toBe(1);
      await closed[0];
      expect(await app.post("/Docs", {})).toEqual({ status: 200, body: { d: [] } });
    } finally {
      await app.close();
    }
  });
});
