// UpsertN / UpsertE at the store level: update the first existing item, else create.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { StrandError } from "../core/errors.js";
import { uuidv7 } from "../runtime/store/ids.js";
import type { QueryContext } from "../core/query-context.js";
import type { GraphStore } from "../runtime/graph-store.js";
import { openTempStore } from "./support/store-fixtures.js";
import { httpStatus } from "../server/http/status.js";

async function rejection(p: Promise<unknown>): Promise<StrandError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StrandError) return e;
    throw e;
  }
  throw new Error("expected a StrandError");
}

let store: GraphStore;
let cleanup: () => Promise<void>;
beforeEach(() => {
  ({ store, cleanup } = openTempStore());
});
afterEach(async () => {
  await cleanup();
});
const w = <T>(fn: (db: QueryContext) => T) => store.write(fn);
const r = <T>(fn: (db: QueryContext) => T) => store.read(fn);

describe("upsertNode", () => {
  test("nothing existing: creates, with defaults", async () => {
    const u = await w((db) => db.upsertNode("User", [], { name: "a", age: 3 }));
    expect(Object.keys(u)).toEqual(["id", "label", "name", "age", "active", "created"]);
    expect(u).toMatchObject({ label: "User", name: "a", age: 3, active: true });
    expect(r((db) => db.nodesByLabel("User"))).toEqual([u]);
    expect(r((db) => db.nodesByIndex("User", "age", 3))).toEqual([u]);
  });

  test("existing items: only the first is updated (listed props only), and returned", async () => {
    const [a, b] = await w((db) => [db.addNode("User", { name: "a", age: 1 }), db.addNode("User", { name: "b", age: 1 })]);
    const got = await w((db) => db.upsertNode("User", db.nodesByIndex("User", "age", 1), { age: 2, email: "a@x" }));
    expect(got).toEqual({ id: a!.id, label: "User", name: "a", email: "a@x", age: 2, active: true, created: a!.created });
    expect(r((db) => db.nodesByLabel("User"))).toEqual([got, b]);
    expect(r((db) => db.nodesByIndex("User", "age", 2))).toEqual([got]);
    expect(r((db) => db.nodesByIndex("User", "email", "a@x"))).toEqual([got]);
  });

  test("a stale item is re-read; items dropped earlier in the query are passed over", async () => {
    const [a, b] = await w((db) => [db.addNode("User", { name: "a" }), db.addNode("User", { name: "b" })]);
    await w((db) => db.updateNodes([a!], { age: 7 }));
    const kept = await w((db) => db.upsertNode("User", [a!], { name: "a2" }));
    expect(kept).toMatchObject({ id: a!.id, name: "a2", age: 7 });
    const second = await w((db) => {
      db.drop([a!]);
      return db.upsertNode("User", [a!, b!], { age: 9 });
    });
    expect(second).toMatchObject({ id: b!.id, name: "b", age: 9 });
    const created = await w((db) => {
      db.drop([b!]);
      return db.upsertNode("User", [a!, b!], { name: "c" });
    });
    expect(r((db) => db.nodesByLabel("User"))).toEqual([created]);
    expect(created.name).toBe("c");
  });

  test("UNIQUE INDEX is enforced on both paths (409) and the failed write changes nothing", async () => {
    const [a, b] = await w((db) => [db.addNode("User", { email: "a@x" }), db.addNode("User", { email: "b@x" })]);
    let e = await rejection(w((db) => db.upsertNode("User", [], { email: "a@x" })));
    expect([e.code, httpStatus(e.code)]).toEqual(["UNIQUE_VIOLATION", 409]);
    expect(e.message).toBe(`UNIQUE INDEX violated: N::User field 'email' already has value "a@x"`);
    e = await rejection(w((db) => db.upsertNode("User", [b!], { email: "a@x" })));
    expect([e.code, httpStatus(e.code)]).toEqual(["UNIQUE_VIOLATION", 409]);
    expect(r((db) => db.nodesByLabel("User"))).toEqual([a, b]);
    // Its own value is no violation.
    expect(await w((db) => db.upsertNode("User", [a!], { email: "a@x", name: "same" }))).toMatchObject({ email: "a@x", name: "same" });
  });

  test("props are validated on both paths; a label mismatch is a bug; reads refuse it", async () => {
    const a = await w((db) => db.addNode("User", {}));
    expect((await rejection(w((db) => db.upsertNode("User", [], { age: 300 })))).code).toBe("INVALID_VALUE");
    expect((await rejection(w((db) => db.upsertNode("User", [a], { nick: "x" })))).code).toBe("INVALID_VALUE");
    await expect(w((db) => db.upsertNode("Post", [a], {}))).rejects.toThrow("upsert of Post given an item of label User");
    expect(() => r((db) => db.upsertNode("User", [], {}))).toThrow(/read transaction/);
  });
});

describe("upsertEdge", () => {
  test("nothing existing: creates from → to with defaults; existing: updates the first, endpoints unchanged", async () => {
    const [a, b, c] = await w((db) => [
      db.addNode("User", { name: "a" }),
      db.addNode("User", { name: "b" }),
      db.addNode("User", { name: "c" }),
    ]);
    const e = await w((db) => db.upsertEdge("Follows", db.outE([a!], "Follows"), {}, a!.id, b!.id));
    expect(e).toEqual({ id: e.id, label: "Follows", from_node: a!.id, to_node: b!.id, weight: 1 });
    const u = await w((db) => db.upsertEdge("Follows", db.outE([a!], "Follows"), { weight: 2.5, since: "2024-01-01" }, a!.id, c!.id));
    expect(u).toEqual({ ...e, weight: 2.5, since: "2024-01-01T00:00:00.000Z" });
    expect(r((db) => db.edgesByLabel("Follows"))).toEqual([u]);
    expect(r((db) => db.out([a!], "Follows").map((n) => n.name))).toEqual(["b"]);
    expect(r((db) => db.in([c!], "Follows"))).toEqual([]);
  });

  test("create path: endpoint checks (404, 400) and E::T UNIQUE (409)", async () => {
    const [a, b] = await w((db) => [db.addNode("User", {}), db.addNode("User", {})]);
    const p = await w((db) => db.addNode("Post", {}));
    const missing = uuidv7();
    let e = await rejection(w((db) => db.upsertEdge("Follows", [], {}, a!.id, missing)));
    expect([e.code, httpStatus(e.code), e.message]).toEqual(["NOT_FOUND", 404, `to node '${missing}' of E::Follows not found`]);
    e = await rejection(w((db) => db.upsertEdge("Follows", [], {}, p.id, a!.id)));
    expect([e.code, httpStatus(e.code)]).toEqual(["EDGE_TYPE_MISMATCH", 400]);
    await w((db) => db.upsertEdge("Follows", [], {}, a!.id, b!.id));
    e = await rejection(w((db) => db.upsertEdge("Follows", [], {}, a!.id, b!.id)));
    expect([e.code, httpStatus(e.code)]).toEqual(["UNIQUE_VIOLATION", 409]);
    expect(r((db) => db.edgesByLabel("Follows").length)).toBe(1);
  });

  test("UNIQUE INDEX on an edge field: 409 on create and on update", async () => {
    const [a, b] = await w((db) => [db.addNode("User", {}), db.addNode("User", {})]);
    const k1 = await w((db) => db.upsertEdge("Knows", [], { code: "k1" }, a!.id, b!.id));
    const k2 = await w((db) => db.upsertEdge("Knows", [], { code: "k2" }, a!.id, b!.id));
    expect((await rejection(w((db) => db.upsertEdge("Knows", [], { code: "k1" }, b!.id, a!.id)))).code).toBe("UNIQUE_VIOLATION");
    expect((await rejection(w((db) => db.upsertEdge("Knows", [k2], { code: "k1" }, a!.id, b!.id)))).code).toBe("UNIQUE_VIOLATION");
    expect(r((db) => db.edgesByLabel("Knows"))).toEqual([k1, k2]);
  });

  test("an edge dropped earlier in the query is passed over: a new one is created", async () => {
    const [a, b] = await w((db) => [db.addNode("User", {}), db.addNode("User", {})]);
    const e = await w((db) => db.addEdge("Follows", { weight: 4 }, a!.id, b!.id));
    const fresh = await w((db) => {
      db.drop([e]);
      return db.upsertEdge("Follows", [e], {}, b!.id, a!.id);
    });
    expect(fresh).toMatchObject({ from_node: b!.id, to_node: a!.id, weight: 1 });
    expect(fresh.id).not.toBe(e.id);
    expect(r((db) => db.edgesByLabel("Follows"))).toEqual([fresh]);
  });
});
