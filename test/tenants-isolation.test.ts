// Tenants under concurrency (server/tenants/): four lanes of seeded random operations against one
// in-process server, on four tenants and the project's own graph at once — writes (named and
// ad-hoc), reads by index, ad-hoc counts and /mcp traversals — with a tenant dropped between
// phases while the others keep their data. Every answer may hold only its own tenant's records
// (each handle names its tenant), must hold every write acknowledged to that tenant before the
// read began, and nothing it could not have; at the end each tenant holds exactly its own writes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adHocCompiler } from "../cli/project/adhoc-compiler.js";
import { loadProject } from "../cli/project/load-project.js";
import { readProjectSources } from "../cli/project/sources.js";
import { GraphStore } from "../runtime/graph-store.js";
import { type RunningServer, startServer } from "../server/server.js";
import { Random } from "./support/memory.js";
import { SOCIAL_EXAMPLE } from "./support/server.js";

const TENANTS = ["default", "ta", "tb", "tc", "td"] as const;
type Tenant = (typeof TENANTS)[number];
const SEEDS = [1, 2, 3];
// Ad-hoc writes need a server with keys.
const KEY = "isolation-test-key-0123";

interface Model {
  /** handles whose write was acknowledged */
  acked: Set<string>;
  /** handles sent, acknowledged or not yet */
  sent: Set<string>;
}

describe("tenants under concurrent random operations", () => {
  let root: string;
  let store: GraphStore;
  let server: RunningServer;
  let url: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "strand-tenants-iso-"));
    const project = await loadProject(SOCIAL_EXAMPLE);
    store = GraphStore.open({ path: join(root, "data"), schema: project.schema });
    server = await startServer({
      store,
      schema: project.schema,
      queries: project.queries,
      adhoc: adHocCompiler(readProjectSources(SOCIAL_EXAMPLE), { bm25: true }),
      apiKey: KEY,
      tenantStores: { root: join(root, "data", "tenants"), open: (dir) => GraphStore.open({ path: dir, schema: project.schema }) },
      port: 0,
    });
    url = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const prefix = (tenant: Tenant): string => (tenant === "default" ? "" : `/t/${tenant}`);
  const post = async (path: string, body: unknown): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const handlesOf = (records: unknown): string[] => (records as { handle: string }[]).map((r) => r.handle);

  for (const seed of SEEDS) {
    it(`keeps every answer to its own tenant (seed ${seed})`, async () => {
      const models = new Map<Tenant, Model>(TENANTS.map((t) => [t, { acked: new Set(), sent: new Set() }]));
      const problems: string[] = [];
      /** An answer's handles: all of its tenant, at least what was acknowledged before, at most what was sent. */
      const check = (tenant: Tenant, what: string, handles: string[], before: Set<string>): void => {
        const model = models.get(tenant)!;
        for (const h of handles) {
          const [run, owner] = h.split(".");
          if (owner !== tenant) problems.push(`${what} on ${tenant} answered ${h}, another tenant's`);
          else if (run === String(seed) && !model.sent.has(h)) problems.push(`${what} on ${tenant} answered ${h}, never sent`);
        }
        for (const h of before) if (!handles.includes(h)) problems.push(`${what} on ${tenant} missed ${h}, acknowledged before it`);
      };
      const lane = async (id: number, random: Random, ops: number): Promise<void> => {
        for (let i = 0; i < ops; i++) {
          const tenant = random.pick(TENANTS);
          const model = models.get(tenant)!;
          const kind = random.int(5);
          if (kind <= 1) {
            const handle = `${seed}.${tenant}.${id}.${i}`;
            model.sent.add(handle);
            // An ad-hoc write creates no tenant: sent only to one that holds acknowledged writes.
            const adHoc = kind === 1 && model.acked.size > 0;
            const reply = adHoc
              ? await post(`${prefix(tenant)}/query`, {
                  query: 'u <- AddN<User>({handle: h, name: "n", city: "Oslo", age: 30})\nRETURN NONE',
                  params: { h: handle },
                })
              : await post(`${prefix(tenant)}/AddUser`, { handle, name: "n", city: "Oslo", age: 30 });
            if (reply.status !== 200) problems.push(`AddUser on ${tenant}: ${reply.status} ${JSON.stringify(reply.body)}`);
            else model.acked.add(handle);
          } else {
            const before = new Set(model.acked);
            if (tenant !== "default" && before.size === 0 && model.sent.size === 0) continue; // not created yet
            if (kind === 2) {
              const reply = await post(`${prefix(tenant)}/UsersInCity`, { city: "Oslo" });
              if (reply.status === 200) check(tenant, "UsersInCity", handlesOf((reply.body as { users: unknown }).users), before);
              else if (before.size > 0) problems.push(`UsersInCity on ${tenant}: ${reply.status}`);
            } else if (kind === 3) {
              const reply = await post(`${prefix(tenant)}/query`, { query: "N<User>::{handle}" });
              if (reply.status === 200) check(tenant, "query", handlesOf((reply.body as { result: unknown }).result), before);
              else if (before.size > 0) problems.push(`query on ${tenant}: ${reply.status}`);
            } else {
              const init = await post(`${prefix(tenant)}/mcp/init`, {});
              if (init.status !== 200) {
                if (before.size > 0) problems.push(`mcp init on ${tenant}: ${init.status}`);
                continue;
              }
              const connection = init.body as string;
              await post(`${prefix(tenant)}/mcp/n_from_type`, { connection_id: connection, data: { node_type: "User" } });
              const collected = await post(`${prefix(tenant)}/mcp/collect`, { connection_id: connection });
              check(tenant, "mcp collect", handlesOf(collected.body), before);
            }
          }
        }
      };
      const random = new Random(seed);
      for (let phase = 0; phase < 2; phase++) {
        await Promise.all([0, 1, 2, 3].map((id) => lane(phase * 10 + id, new Random(random.int(2 ** 31)), 40)));
        expect(problems).toEqual([]);
        // Drop one tenant between phases: it is gone, the others keep exactly their writes.
        const dropped: Tenant = phase === 0 ? "tb" : "td";
        const drop = await fetch(`${url}/tenants/${dropped}`, { method: "DELETE", headers: { "x-api-key": KEY } });
        if (models.get(dropped)!.acked.size > 0) expect(drop.status).toBe(200);
        models.set(dropped, { acked: new Set(), sent: new Set() });
        for (const tenant of TENANTS) {
          const reply = await post(`${prefix(tenant)}/query`, { query: "N<User>::{handle}" });
          const own = [...models.get(tenant)!.acked].filter((h) => h.startsWith(`${seed}.`));
          const mine =
            reply.status === 200 ? handlesOf((reply.body as { result: unknown }).result).filter((h) => h.startsWith(`${seed}.`)) : [];
          expect({ tenant, handles: mine.sort() }).toEqual({ tenant, handles: own.sort() });
        }
      }
    }, 120_000);
  }
});
