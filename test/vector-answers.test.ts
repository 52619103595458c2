// Vector records on the wire: every vector in an answer carries `score` (a search's, else
// HelixDB's placeholder 2) and, unless the project leaves it out (strand.toml [server]
// vector_data_in_answers = false → AppOptions.vectorDataInAnswers), its embedding `data` —
// in answers of queries and of /mcp tools alike. A query drops it itself with `::!{data}`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HxApp, openHxApp } from "./support/hx-app.js";

const HX = `
V::Doc { title: String }

QUERY AddDoc(v: [F64], title: String) =>
    doc <- AddV<Doc>(v, {title: title})
    RETURN doc

#[mcp]
QUERY GetDoc(id: ID) =>
    doc <- V<Doc>(id)
    RETURN doc

QUERY Nearest(v: [F64]) =>
    docs <- SearchV<Doc>(v, 1)
    RETURN docs

QUERY GetDocWithoutData(id: ID) =>
    doc <- V<Doc>(id)
    RETURN doc::!{data}
`;

/** The answers of one app, from adding a vector to reading it back every way. */
async function answers(app: HxApp): Promise<Record<string, unknown>> {
  const added = await app.post("/AddDoc", { v: [1, 0], title: "a" });
  const id = (added.body as { doc: { id: string } }).doc.id;
  const connection = (await app.post("/mcp/init", {})).body as string;
  return {
    id,
    added,
    get: await app.post("/GetDoc", { id }),
    nearest: await app.post("/Nearest", { v: [1, 0] }),
    excluded: await app.post("/GetDocWithoutData", { id }),
    mcpQuery: await app.post("/mcp/GetDocMcp", { connection_id: connection, data: { id } }),
    mcpSearch: await app.post("/mcp/search_vector", { connection_id: connection, data: { vector: [1, 0], k: 1, label: "Doc" } }),
  };
}

describe("vector records in answers", () => {
  let withData: HxApp;
  let withoutData: HxApp;
  beforeAll(async () => {
    withData = await openHxApp(HX);
    withoutData = await openHxApp(HX, { vectorDataInAnswers: false });
  });
  afterAll(async () => {
    await withData.close();
    await withoutData.close();
  });

  it("carry data and score 2 outside a search, the search's score in one, by default (as HelixDB)", async () => {
    const a = await answers(withData);
    const doc = { id: a.id, label: "Doc", data: [1, 0], title: "a" };
    expect(a).toEqual({
      id: a.id,
      added: { status: 200, body: { doc: { ...doc, score: 2 } } },
      get: { status: 200, body: { doc: { ...doc, score: 2 } } },
      nearest: { status: 200, body: { docs: [{ ...doc, score: 1 }] } },
      excluded: { status: 200, body: { doc: { id: a.id, label: "Doc", title: "a", score: 2 } } },
      mcpQuery: { status: 200, body: { doc: { ...doc, score: 2 } } },
      mcpSearch: { status: 200, body: [{ ...doc, score: 1 }] },
    });
    // Member order on the wire: the record's own, then the placeholder score (a search puts its score before the fields).
    expect(JSON.stringify((a.get as { body: unknown }).body)).toBe(
      `{"doc":{"id":"${a.id}","label":"Doc","data":[1,0],"title":"a","score":2}}`,
    );
  });

  it("leave data out with vectorDataInAnswers: false, and keep score", async () => {
    const a = await answers(withoutData);
    const doc = { id: a.id, label: "Doc", title: "a" };
    expect(a).toEqual({
      id: a.id,
      added: { status: 200, body: { doc: { ...doc, score: 2 } } },
      get: { status: 200, body: { doc: { ...doc, score: 2 } } },
      nearest: { status: 200, body: { docs: [{ ...doc, score: 1 }] } },
      excluded: { status: 200, body: { doc: { ...doc, score: 2 } } },
      mcpQuery: { status: 200, body: { doc: { ...doc, score: 2 } } },
      mcpSearch: { status: 200, body: [{ ...doc, score: 1 }] },
    });
    // The other members keep their order.
    expect(JSON.stringify((a.nearest as { body: unknown }).body)).toBe(`{"docs":[{"id":"${a.id}","label":"Doc","score":1,"title":"a"}]}`);
    // Only the answer changes: the stored vector is whole and searchable.
    expect(withoutData.store.read((db) => db.vectorsByLabel("Doc").map((v) => v.data))).toEqual([[1, 0]]);
  });
});
