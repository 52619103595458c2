// Issue #14, the /mcp half: no single client can take the server down. Steps yield sets within
// item budgets (the six-call explosion on a follow graph), the items all connections hold are
// bounded, close ends a connection, and one client's connections cannot lock out another.
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { strandConfig } from "../cli/config/load-config.js";
import { mcpLimitOptions } from "../cli/config/settings.js";
import { createApp, type AppOptions } from "../server/index.js";
import { startServer, type RunningServer } from "../server/server.js";
import { GraphStore } from "../runtime/graph-store.js";
import { err, ok, openFixture, queries, schema, type Reply } from "./support/mcp-fixture.js";

const USERS = 300;
const FOLLOWS_EACH = 60;

/** 300 users, user i following users i+1 .. i+60 (mod 300): 18,000 Follows edges. */
async function followGraph(dir: string): Promise<GraphStore> {
  const store = GraphStore.open({ path: dir, schema });
  await store.write((db) => {
    const ids: string[] = [];
    for (let i = 0; i < USERS; i++)
      ids.push(db.addNode("User", { name: `u${i}`, age: 20, city: "X", tags: [], joined: "2020-01-01T00:00:00.000Z" }).id);
    for (let i = 0; i < USERS; i++) {
      for (let k = 1; k <= FOLLOWS_EACH; k++) db.addEdge("Follows", { since: "2021-01-01T00:00:00.000Z" }, ids[i]!, ids[(i + k) % USERS]!);
    }
  });
  return store;
}

let dir: string;
let store: GraphStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "strand-guard-"));
  store = await followGraph(dir);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An in-process app over the follow graph and its POST helper. */
function appWith(options: Partial<AppOptions> = {}): (tool: string, body: unknown) => Promise<Reply> {
  const app = createApp({ store, schema, queries, ...options });
  return async (tool, body) => {
    const res = await app.request(`/mcp/${tool}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: JSON.parse(await res.text()) as unknown };
  };
}

const held = (id: string, count: number): Reply => ok({ connection_id: id, count });
const tooLarge = (message: string): Reply => err(400, "RESULT_TOO_LARGE", message);
const FOLLOWS = { edge_type: "node", edge_label: "Follows" };

describe("the six-call explosion (issue #14, item 1)", () => {
  it("init, n_from_type and four out_steps hold a de-duplicated set of at most 300 users, quickly", async () => {
    const tool = appWith();
    const started = Date.now();
    const id = (await tool("init", {})).body as string;
    expect(await tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(held(id, USERS));
    for (let step = 0; step < 4; step++) expect(await tool("out_step", { connection_id: id, data: FOLLOWS })).toEqual(held(id, USERS));
    expect(Date.now() - started).toBeLessThan(5_000);
    const items = (await tool("collect", { connection_id: id })).body as { name: string }[];
    expect(items.length).toBe(USERS);
    expect(new Set(items.map((u) => u.name)).size).toBe(USERS);
  });

  it("in_step, out_e_step and in_e_step yield sets too", async () => {
    const tool = appWith();
    const id = (await tool("init", {})).body as string;
    await tool("n_from_type", { connection_id: id, data: { node_type: "User" } });
    expect(await tool("in_step", { connection_id: id, data: FOLLOWS })).toEqual(held(id, USERS));
    expect(await tool("out_e_step", { connection_id: id, data: FOLLOWS })).toEqual(held(id, USERS * FOLLOWS_EACH));
    // Every edge's target, each user once.
    expect(await tool("in_e_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(held(id, USERS));
  });

  it("a step past mcp_max_items is a 400 naming the step and the limit, and leaves the traversal as it was", async () => {
    const tool = appWith({ mcpConnections: { maxItems: 5_000 } });
    const id = (await tool("init", {})).body as string;
    expect(await tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(held(id, USERS));
    expect(await tool("out_e_step", { connection_id: id, data: FOLLOWS })).toEqual(
      tooLarge(
        "out_e_step would hold more than 5000 items (mcp_max_items); narrow the traversal first (filter_items, or a step from fewer items)",
      ),
    );
    expect(await tool("out_step", { connection_id: id, data: FOLLOWS })).toEqual(held(id, USERS));
    const small = appWith({ mcpConnections: { maxItems: 250 } });
    const other = (await small("init", {})).body as string;
    expect(await small("n_from_type", { connection_id: other, data: { node_type: "User" } })).toEqual(
      tooLarge(
        "n_from_type would hold more than 250 items (mcp_max_items); narrow the traversal first (filter_items, or a step from fewer items)",
      ),
    );
    expect(await small("next", { connection_id: other })).toEqual(ok(null));
  });

  it("a call that reaches more than mcp_max_request_items before de-duplication stops there", async () => {
    const tool = appWith({ mcpConnections: { maxRequestItems: 10_000 } });
    const id = (await tool("init", {})).body as string;
    await tool("n_from_type", { connection_id: id, data: { node_type: "User" } });
    expect(await tool("out_step", { connection_id: id, data: FOLLOWS })).toEqual(
      tooLarge(
        "out_step reaches more than 10000 items in one call (mcp_max_request_items); narrow the traversal first (filter_items, or collect a range and step from fewer items)",
      ),
    );
    expect(await tool("collect", { connection_id: id, range: { start: 0, end: 1 } })).toEqual(
      ok([expect.objectContaining({ name: "u0" })]),
    );
  });
});

describe("filter_traversals count against mcp_max_request_items", () => {
  it("a filter that walks two steps from every user stops at the limit", async () => {
    const tool = appWith({ mcpConnections: { maxRequestItems: 10_000 } });
    const id = (await tool("init", {})).body as string;
    await tool("n_from_type", { connection_id: id, data: { node_type: "User" } });
    const nobody = { properties: [[{ key: "name", operator: "==", value: "nobody" }]] };
    const twoSteps = {
      filter_traversals: [
        {
          tool_name: "out_step",
          args: {
            edge_label: "Follows",
            filter: { filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Follows", filter: nobody } }] },
          },
        },
      ],
    };
    expect(await tool("filter_items", { connection_id: id, data: { filter: twoSteps } })).toEqual(
      tooLarge(
        "filter_items reaches more than 10000 items in one call (mcp_max_request_items); narrow the traversal first (filter_items, or collect a range and step from fewer items)",
      ),
    );
    const oneStep = {
      filter_traversals: [
        {
          tool_name: "out_step",
          args: { edge_label: "Follows", filter: { properties: [[{ key: "name", operator: "==", value: "u5" }]] } },
        },
      ],
    };
    // Within the default limit a filter traversal runs: u245 .. u299 and u0 .. u4 follow u5.
    const wide = appWith();
    const other = (await wide("init", {})).body as string;
    await wide("n_from_type", { connection_id: other, data: { node_type: "User" } });
    expect(await wide("filter_items", { connection_id: other, data: { filter: oneStep } })).toEqual(held(other, 60));
  });
});

describe("the items all connections hold are bounded (item 2)", () => {
  it("mcp_max_total_items leaves a connection what the others do not hold; close and reset give it back", async () => {
    const tool = appWith({ mcpConnections: { maxTotalItems: 500 } });
    const a = (await tool("init", {})).body as string;
    const b = (await tool("init", {})).body as string;
    expect(await tool("n_from_type", { connection_id: a, data: { node_type: "User" } })).toEqual(held(a, USERS));
    const full = tooLarge(
      "n_from_type would hold more than 200 items: the agent connections may hold 500 together (mcp_max_total_items) and the others hold 300; close or reset connections that are done",
    );
    expect(await tool("n_from_type", { connection_id: b, data: { node_type: "User" } })).toEqual(full);
    // A connection's own items count for it: a stays within the total when it steps again.
    expect(await tool("out_step", { connection_id: a, data: FOLLOWS })).toEqual(held(a, USERS));
    expect(await tool("reset", { connection_id: a })).toEqual(ok(a));
    expect(await tool("n_from_type", { connection_id: b, data: { node_type: "User" } })).toEqual(held(b, USERS));
    expect(await tool("n_from_type", { connection_id: a, data: { node_type: "User" } })).toEqual(full);
    expect(await tool("close", { connection_id: b })).toEqual(ok({ connection_id: b, closed: true }));
    expect(await tool("n_from_type", { connection_id: a, data: { node_type: "User" } })).toEqual(held(a, USERS));
  });
});

/** An in-process app over the follow graph, and its POST helper for a client at `address`. */
function appOfClients(options: Partial<AppOptions> = {}): (address: string, tool: string, body: unknown) => Promise<Reply> {
  const app = createApp({ store, schema, queries, ...options });
  return async (address, tool, body) => {
    const text = JSON.stringify(body);
    const forwarded = {
      headers: { "content-type": "application/json" },
      remoteAddress: address,
      body: new TextEncoder().encode(text),
      refusal: null,
    };
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: text };
    const res = await app.request(`/mcp/${tool}`, init, { forwarded });
    return { status: res.status, body: JSON.parse(await res.text()) as unknown };
  };
}

describe("one client's connections keep to a share of the total", () => {
  it("leaves one connection's room (at most half the total) for other clients", async () => {
    // Total 1,000, 400 per connection: a client's share is 600, 400 kept for the others.
    const tool = appOfClients({ mcpConnections: { maxTotalItems: 1000, maxItems: 400 } });
    const users = { node_type: "User" };
    const a1 = (await tool("10.0.0.1", "init", {})).body as string;
    const a2 = (await tool("10.0.0.1", "init", {})).body as string;
    const a3 = (await tool("10.0.0.1", "init", {})).body as string;
    const b = (await tool("10.0.0.2", "init", {})).body as string;
    expect(await tool("10.0.0.1", "n_from_type", { connection_id: a1, data: users })).toEqual(held(a1, USERS));
    expect(await tool("10.0.0.1", "n_from_type", { connection_id: a2, data: users })).toEqual(held(a2, USERS));
    // 900 together would pass the client's 600, though the total (1,000) has room.
    expect(await tool("10.0.0.1", "n_from_type", { connection_id: a3, data: users })).toEqual(
      tooLarge(
        "n_from_type would hold more than 0 items: one client's connections may hold 600 together (mcp_max_total_items less 400 kept for other clients) and this client's others hold 600; close or reset connections that are done",
      ),
    );
    // Another client still gets its traversal.
    expect(await tool("10.0.0.2", "n_from_type", { connection_id: b, data: users })).toEqual(held(b, USERS));
    // A connection's own items count for it: a1 steps again within the share.
    expect(await tool("10.0.0.1", "out_step", { connection_id: a1, data: FOLLOWS })).toEqual(held(a1, USERS));
    expect(await tool("10.0.0.1", "reset", { connection_id: a2 })).toEqual(ok(a2));
    expect(await tool("10.0.0.1", "n_from_type", { connection_id: a3, data: users })).toEqual(held(a3, USERS));
    expect(await tool("10.0.0.1", "n_from_type", { connection_id: a2, data: users })).toEqual(
      tooLarge(
        "n_from_type would hold more than 0 items: one client's connections may hold 600 together (mcp_max_total_items less 400 kept for other clients) and this client's others hold 600; close or reset connections that are done",
      ),
    );
    // A third client: the total (900 held) binds before its share.
    const c = (await tool("10.0.0.3", "init", {})).body as string;
    expect(await tool("10.0.0.3", "n_from_type", { connection_id: c, data: users })).toEqual(
      tooLarge(
        "n_from_type would hold more than 100 items: the agent connections may hold 1000 together (mcp_max_total_items) and the others hold 900; close or reset connections that are done",
      ),
    );
    expect(await tool("10.0.0.2", "close", { connection_id: b })).toEqual(ok({ connection_id: b, closed: true }));
    expect(await tool("10.0.0.3", "n_from_type", { connection_id: c, data: users })).toEqual(held(c, USERS));
  });

  it("counts the addresses of one IPv6 /64 as one client", async () => {
    const tool = appOfClients({ mcpConnections: { maxTotalItems: 1000, maxItems: 400 } });
    const users = { node_type: "User" };
    const ids: string[] = [];
    for (const address of ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6::3"])
      ids.push((await tool(address, "init", {})).body as string);
    expect(await tool("2001:db8:5:6::1", "n_from_type", { connection_id: ids[0], data: users })).toEqual(held(ids[0]!, USERS));
    expect(await tool("2001:db8:5:6::2", "n_from_type", { connection_id: ids[1], data: users })).toEqual(held(ids[1]!, USERS));
    expect(await tool("2001:db8:5:6::3", "n_from_type", { connection_id: ids[2], data: users })).toEqual(
      tooLarge(
        "n_from_type would hold more than 0 items: one client's connections may hold 600 together (mcp_max_total_items less 400 kept for other clients) and this client's others hold 600; close or reset connections that are done",
      ),
    );
  });

  it("is not kept by a caller that names no client (in process, stdio): the only client there is", async () => {
    const tool = appWith({ mcpConnections: { maxTotalItems: 1000, maxItems: 400 } });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await tool("init", {})).body as string);
    for (const id of ids) expect(await tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(held(id, USERS));
  });
});

describe("close (item 7)", () => {
  it("ends the connection and frees its place among the client's connections", async () => {
    const tool = appWith({ mcpConnections: { maxConnectionsPerClient: 2 } });
    const a = (await tool("init", {})).body as string;
    const b = (await tool("init", {})).body as string;
    expect(await tool("init", {})).toEqual(
      err(
        429,
        "TOO_MANY_CONNECTIONS",
        "this client has too many open connections (limit 2 per client); close some with the close tool, or wait 1800000 ms for idle ones to expire",
      ),
    );
    expect(await tool("close", { connection_id: a })).toEqual(ok({ connection_id: a, closed: true }));
    expect(await tool("next", { connection_id: a })).toEqual(
      err(404, "UNKNOWN_CONNECTION", `unknown connection_id '${a}' (never created, or expired after being idle)`),
    );
    expect(await tool("close", { connection_id: a })).toEqual(
      err(404, "UNKNOWN_CONNECTION", `unknown connection_id '${a}' (never created, or expired after being idle)`),
    );
    expect((await tool("init", {})).status).toBe(200);
    expect(await tool("next", { connection_id: b })).toEqual(ok(null));
    expect(await tool("close", { connection_id: b, extra: 1 })).toEqual(
      err(400, "UNKNOWN_PARAMETER", "unknown member 'extra' (expected: connection_id)"),
    );
  });
});

/** POST /mcp/init from `localAddress` (any 127.x address reaches a server on 127.0.0.1 under Linux). */
function initFrom(server: RunningServer, agent: Agent, localAddress: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: server.port,
        path: "/mcp/init",
        method: "POST",
        agent,
        localAddress,
        headers: { "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on("error", reject);
    req.end("{}");
  });
}

describe("one client cannot lock the others out of /mcp (item 7)", () => {
  it("10,000 inits from one address: 100 connections, then 429 naming its own cap; another address still gets one", async () => {
    const server = await startServer({ store, schema, queries, port: 0 });
    const flooder = new Agent({ keepAlive: true, maxSockets: 16 });
    const other = new Agent({ keepAlive: true });
    try {
      const replies: Reply[] = [];
      const started = Date.now();
      for (let sent = 0; sent < 10_000; sent += 200) {
        replies.push(...(await Promise.all(Array.from({ length: 200 }, () => initFrom(server, flooder, "127.0.0.2")))));
      }
      const elapsed = Date.now() - started;
      const granted = replies.filter((r) => r.status === 200);
      expect(granted.length).toBe(100);
      expect(replies.find((r) => r.status !== 200)).toEqual(
        err(
          429,
          "TOO_MANY_CONNECTIONS",
          "this client has too many open connections (limit 100 per client); close some with the close tool, or wait 1800000 ms for idle ones to expire",
        ),
      );
      const second = await initFrom(server, other, "127.0.0.3");
      expect(second.status).toBe(200);
      expect(typeof second.body).toBe("string");
      expect(elapsed).toBeLessThan(20_000);
    } finally {
      flooder.destroy();
      other.destroy();
      await server.close();
    }
  }, 30_000);
});

describe("a traversal holds ids, not copies of records (item 2)", () => {
  it("tools read the records again: writes made since show, items deleted since are passed over", async () => {
    const f = await openFixture();
    try {
      const id = await f.init();
      expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(held(id, 4));
      const { ada, bob, cyd, dee } = f.data;
      await f.store.write((db) => {
        db.drop([db.nodeById("User", bob.id)]);
        db.updateNodes([db.nodeById("User", cyd.id)], { age: 53 });
      });
      expect(await f.tool("next", { connection_id: id })).toEqual(ok(ada));
      // bob is gone: next passes over him.
      expect(await f.tool("next", { connection_id: id })).toEqual(ok({ ...cyd, age: 53 }));
      expect(await f.tool("collect", { connection_id: id })).toEqual(ok([ada, { ...cyd, age: 53 }, dee]));
    } finally {
      await f.close();
    }
  });
});

describe("the limits in strand.toml", () => {
  it("are read, validated like the other keys, and passed to the connections", () => {
    const read = strandConfig(
      "mcp_max_connections_per_client = 3\nmcp_max_items = 1000\nmcp_max_total_items = 5000\nmcp_max_request_items = 20000\n",
      "strand.toml",
    );
    expect(read.ok && mcpLimitOptions(read.config)).toEqual({
      maxConnectionsPerClient: 3,
      maxItems: 1000,
      maxTotalItems: 5000,
      maxRequestItems: 20000,
    });
    // Unset: the registry's defaults apply.
    const none = strandConfig("", "strand.toml");
    expect(none.ok && mcpLimitOptions(none.config)).toEqual({});
    expect(
      strandConfig('mcp_max_items = 0\nmcp_max_request_items = "many"\nmcp_max_connections_per_client = 1.5\n', "strand.toml"),
    ).toEqual({
      ok: false,
      errors: [
        "strand.toml: mcp_max_connections_per_client: expected an integer from 1 to 1000000, got 1.5 (a float)",
        "strand.toml: mcp_max_items: expected an integer from 1 to 1000000000, got 0",
        'strand.toml: mcp_max_request_items: expected an integer from 1 to 1000000000, got "many"',
      ],
    });
  });
});
