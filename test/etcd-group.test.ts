// The group state in real etcd (issue 15 item 4): one leader per epoch, epochs only rise, a dead
// leader's key expires with its lease, a fenced (old) leader cannot write the in-sync set, and
// only an in-sync replica may take over. Needs Debian's etcd-server (.ci/run installs it).
import { spawn } from "node:child_process";
import { join as joinPath } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EtcdGroup } from "../server/cluster/etcd-group.js";
import type { GroupLeader } from "../server/cluster/group.js";
import { type EtcdCluster, startEtcdCluster } from "../scripts/campaign/etcd-cluster.js";
import { REPO_ROOT } from "./support/server.js";

let cluster: EtcdCluster;
let groupNo = 0;
const opened: EtcdGroup[] = [];

async function join(group: string, id: string, leaseTtlSeconds = 5): Promise<EtcdGroup> {
  const g = await EtcdGroup.join({ endpoints: cluster.endpoints, group, member: { id, url: `http://127.0.0.1/${id}` }, leaseTtlSeconds });
  opened.push(g);
  return g;
}

const newGroup = (): string => `g${++groupNo}`;

describe("a Strand group in etcd", () => {
  beforeAll(async () => {
    // Without an etcd binary this fails naming the package to install (CI installs it).
    cluster = await startEtcdCluster(3);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((g) => g.close()));
    await cluster?.stop();
  });

  it("lets exactly one of three racing members lead, at epoch 1", async () => {
    const group = newGroup();
    const members = await Promise.all(["a", "b", "c"].map((id) => join(group, id)));
    const attempts = await Promise.all(members.map((m) => m.tryLead(false)));
    const winners = attempts.filter((a) => a.won);
    expect(winners.length).toBe(1);
    const leader = (winners[0] as { leader: GroupLeader }).leader;
    expect(leader.epoch).toBe(1);
    expect(await members[0]!.leader()).toEqual(leader);
    for (const a of attempts.filter((x) => !x.won)) expect(["led", "raced"]).toContain((a as { reason: string }).reason);
    expect(await members[1]!.epoch()).toBe(1);
  });

  it("hands leadership over at a higher epoch when the leader leaves, and fences the old one", async () => {
    const group = newGroup();
    const a = await join(group, "a");
    const b = await join(group, "b");
    const first = await a.tryLead(false);
    expect(first).toEqual({ won: true, leader: { id: "a", url: "http://127.0.0.1/a", epoch: 1 } });
    expect(await b.tryLead(false)).toEqual({ won: false, reason: "led", leader: { id: "a", url: "http://127.0.0.1/a", epoch: 1 } });
    expect(await a.publishInSync(1, ["b"])).toBe(true);
    await a.close();
    expect(await b.leader()).toBeNull();
    expect(await b.tryLead(true)).toEqual({ won: true, leader: { id: "b", url: "http://127.0.0.1/b", epoch: 2 } });
    // a comes back: it sees epoch 2 and that it no longer leads; its in-sync writes are refused
    const again = await join(group, "a");
    expect(await again.stillLeads(1)).toBe(false);
    expect(await again.publishInSync(1, ["a"])).toBe(false);
    expect(await again.inSync()).toEqual({ epoch: 1, leader: "a", ids: ["b"] });
    expect(await b.stillLeads(2)).toBe(true);
    expect(await b.publishInSync(2, ["a"])).toBe(true);
    expect(await again.inSync()).toEqual({ epoch: 2, leader: "b", ids: ["a"] });
  });

  it("lets only an in-sync replica take over when the in-sync set is required", async () => {
    const group = newGroup();
    const a = await join(group, "a");
    const b = await join(group, "b");
    const c = await join(group, "c");
    expect((await a.tryLead(true)).won).toBe(true);
    expect(await a.publishInSync(1, ["c"])).toBe(true);
    await a.close();
    expect(await b.tryLead(true)).toEqual({ won: false, reason: "not_in_sync", leader: null });
    expect(await c.tryLead(true)).toEqual({ won: true, leader: { id: "c", url: "http://127.0.0.1/c", epoch: 2 } });
  });

  it("lets the leader that published the in-sync set take the lead again (it holds every write it acknowledged)", async () => {
    const group = newGroup();
    const a = await join(group, "a");
    expect((await a.tryLead(true)).won).toBe(true);
    expect(await a.publishInSync(1, [])).toBe(true);
    await a.close();
    const b = await join(group, "b");
    expect(await b.tryLead(true)).toEqual({ won: false, reason: "not_in_sync", leader: null });
    const again = await join(group, "a");
    expect(await again.tryLead(true)).toEqual({ won: true, leader: { id: "a", url: "http://127.0.0.1/a", epoch: 2 } });
  });

  it("expires a killed leader's key after its lease TTL, and tells watchers", async () => {
    const group = newGroup();
    const child = spawn(
      process.execPath,
      [joinPath(REPO_ROOT, "test/support/etcd-leader-child.mjs"), cluster.endpoints.join(","), group, "dead", "2"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const said = await new Promise<string>((done) => child.stdout!.setEncoding("utf8").once("data", (d: string) => done(d)));
    expect(said).toBe("leading 1\n");
    const b = await join(group, "b");
    const seen: (GroupLeader | null)[] = [];
    const stopWatching = await b.watchLeader((leader) => seen.push(leader));
    child.kill("SIGKILL");
    const killedAt = Date.now();
    while ((await b.leader()) !== null) {
      if (Date.now() - killedAt > 15_000) throw new Error("the killed leader's key did not expire");
      await new Promise((r) => setTimeout(r, 100));
    }
    const waited = Date.now() - killedAt;
    expect(waited).toBeGreaterThan(500); // the key outlives the process by up to its TTL
    expect(await b.tryLead(false)).toEqual({ won: true, leader: { id: "b", url: "http://127.0.0.1/b", epoch: 2 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([null, { id: "b", url: "http://127.0.0.1/b", epoch: 2 }]);
    await stopWatching();
  }, 30_000);

  it("keeps working with one of three etcd members down, and lists members with their positions", async () => {
    const group = newGroup();
    const a = await join(group, "a");
    const b = await join(group, "b");
    await cluster.killMember(2);
    expect((await a.tryLead(false)).won).toBe(true);
    await a.report({ role: "leader", applied: 42 });
    await b.report({ role: "replica", applied: 40 });
    expect(await b.members()).toEqual([
      { id: "a", url: "http://127.0.0.1/a", role: "leader", applied: 42 },
      { id: "b", url: "http://127.0.0.1/b", role: "replica", applied: 40 },
    ]);
  }, 30_000);
});
