// The synchronous-replication acknowledgement rule (server/cluster/in-sync.ts) on a fake clock:
// a write is acknowledged only when every member of a large-enough in-sync set holds it, and the
// set changes in etcd (here: a recorded publish) before it changes what gets acknowledged.
import { describe, expect, it } from "vitest";
import { type AckOutcome, InSyncTracker } from "../server/cluster/in-sync.js";

function setup(
  required: number,
  initial: string[] = [],
  answer: () => Promise<boolean> = async () => true,
  floors: { seq: number; feed: number } = { seq: 0, feed: -1 },
) {
  let now = 0;
  const published: string[][] = [];
  const tracker = new InSyncTracker(
    {
      required,
      lagTimeoutMs: 1_000,
      publish: async (ids) => {
        published.push([...ids]);
        return answer();
      },
      now: () => now,
    },
    initial,
    floors.seq,
    floors.feed,
  );
  const outcomes = new Map<number, AckOutcome>();
  const feedOutcomes = new Map<number, AckOutcome>();
  const waitFeed = (version: number, timeoutMs = 5_000): void => {
    void tracker.waitFeedAcked(version, timeoutMs).then((o) => feedOutcomes.set(version, o));
  };
  const wait = (seq: number, timeoutMs = 5_000): void => {
    void tracker.waitAcked(seq, timeoutMs).then((o) => outcomes.set(seq, o));
  };
  const flush = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    tracker,
    published,
    outcomes,
    wait,
    feedOutcomes,
    waitFeed,
    flush,
    advance: async (ms: number) => {
      now += ms;
      tracker.tick();
      await flush();
    },
  };
}

describe("the in-sync set", () => {
  it("acknowledges a write only when every in-sync replica has applied it", async () => {
    const t = setup(1, ["b", "c"]);
    t.tracker.replicaApplied("b", 0);
    t.tracker.replicaApplied("c", 0);
    await t.flush();
    t.wait(5);
    t.tracker.replicaApplied("b", 5);
    await t.flush();
    expect(t.outcomes.get(5)).toBeUndefined(); // c does not have it yet
    t.tracker.replicaApplied("c", 7);
    await t.flush();
    expect(t.outcomes.get(5)).toBe("acked");
    expect(t.tracker.ackedSeq).toBe(5);
    expect(t.published).toEqual([]);
  });

  it("adds a replica that holds every acknowledged write, publishing before counting it", async () => {
    const t = setup(1);
    t.wait(3);
    await t.flush();
    expect(t.outcomes.get(3)).toBeUndefined(); // nobody in sync: nothing can be acknowledged
    t.tracker.replicaApplied("b", 3);
    await t.flush();
    expect(t.published).toEqual([["b"]]);
    expect(t.tracker.inSync).toEqual(["b"]);
    expect(t.outcomes.get(3)).toBe("acked");
  });

  it("drops a member that holds a write back past the lag timeout, then acknowledges without it", async () => {
    const t = setup(1, ["b", "c"]);
    t.tracker.replicaApplied("b", 10);
    t.tracker.replicaApplied("c", 4);
    await t.flush();
    t.wait(10);
    await t.advance(500);
    expect(t.outcomes.get(10)).toBeUndefined();
    t.tracker.replicaApplied("b", 10);
    await t.advance(600);
    expect(t.published).toEqual([["b"]]);
    expect(t.outcomes.get(10)).toBe("acked");
    // c catches up past what was acknowledged: it is added back
    t.tracker.replicaApplied("c", 10);
    await t.flush();
    expect(t.published).toEqual([["b"], ["b", "c"]]);
  });

  it("times a write out when the set is smaller than required, and does not acknowledge it", async () => {
    const t = setup(2, ["b"]);
    t.tracker.replicaApplied("b", 9);
    await t.flush();
    t.wait(9, 2_000);
    await t.advance(2_100);
    expect(t.outcomes.get(9)).toBe("timeout");
    expect(t.tracker.ackedSeq).toBe(0);
  });

  it("fences every waiting write when a publication finds that this node no longer leads", async () => {
    const t = setup(1, [], async () => false);
    t.wait(2);
    t.tracker.replicaApplied("b", 2);
    await t.flush();
    expect(t.published).toEqual([["b"]]);
    expect(t.outcomes.get(2)).toBe("fenced");
    expect(await t.tracker.waitAcked(3, 1_000)).toBe("fenced");
  });

  it("keeps the old set while etcd is unreachable, and retries", async () => {
    let reachable = false;
    const t = setup(1, [], async () => {
      if (!reachable) throw new Error("unavailable");
      return true;
    });
    t.wait(1);
    t.tracker.replicaApplied("b", 1);
    await t.flush();
    expect(t.tracker.inSync).toEqual([]);
    expect(t.outcomes.get(1)).toBeUndefined();
    reachable = true;
    await t.advance(300);
    expect(t.tracker.inSync).toEqual(["b"]);
    expect(t.outcomes.get(1)).toBe("acked");
  });

  it("counts a member being added as in sync while its publication is under way", async () => {
    let release: (ok: boolean) => void = () => {};
    const t = setup(1, ["b"], () => new Promise<boolean>((done) => (release = done)));
    t.tracker.replicaApplied("b", 0);
    t.tracker.replicaApplied("c", 0); // holds everything acknowledged (nothing): publication starts
    await t.flush();
    expect(t.published).toEqual([["b", "c"]]);
    t.wait(5);
    t.tracker.replicaApplied("b", 5);
    await t.flush();
    expect(t.outcomes.get(5)).toBeUndefined(); // etcd may already list c, which lacks 5
    release(true);
    await t.flush();
    expect(t.tracker.inSync).toEqual(["b", "c"]);
    expect(t.outcomes.get(5)).toBeUndefined();
    t.tracker.replicaApplied("c", 5);
    await t.flush();
    expect(t.outcomes.get(5)).toBe("acked");
  });

  it("does not acknowledge through a member whose addition etcd has not confirmed yet", async () => {
    let release: (ok: boolean) => void = () => {};
    const t = setup(1, [], () => new Promise<boolean>((done) => (release = done)));
    t.wait(4);
    t.tracker.replicaApplied("b", 4);
    await t.flush();
    expect(t.published).toEqual([["b"]]);
    expect(t.outcomes.get(4)).toBeUndefined(); // etcd may still hold the empty set
    release(true);
    await t.flush();
    expect(t.tracker.inSync).toEqual(["b"]);
    expect(t.outcomes.get(4)).toBe("acked");
  });

  it("acknowledges tenants' changes by the feed version every member holds, and project writes by sequence alone", async () => {
    const t = setup(1, ["b", "c"], async () => true, { seq: 0, feed: 0 });
    t.waitFeed(3);
    t.wait(2);
    t.tracker.replicaApplied("b", 2);
    t.tracker.replicaApplied("c", 2);
    await t.flush();
    expect([t.outcomes.get(2), t.feedOutcomes.get(3)]).toEqual(["acked", undefined]);
    t.tracker.replicaFeed("b", 3);
    t.tracker.replicaFeed("c", 2);
    await t.flush();
    expect(t.feedOutcomes.get(3)).toBeUndefined(); // c holds the tenants only up to version 2
    t.tracker.replicaFeed("c", 4);
    await t.flush();
    expect(t.feedOutcomes.get(3)).toBe("acked");
    expect(t.published).toEqual([]);
  });

  it("adds a replica only once it holds the tenants too, and drops one that holds a tenant's change back", async () => {
    const t = setup(1, ["b"], async () => true, { seq: 5, feed: 2 });
    t.tracker.replicaApplied("b", 5);
    t.tracker.replicaFeed("b", 2);
    t.tracker.replicaApplied("c", 5); // the project's log, but none of the tenants
    await t.flush();
    expect(t.published).toEqual([]);
    t.tracker.replicaFeed("c", 1);
    await t.flush();
    expect(t.published).toEqual([]); // below the feed version this leader started from
    t.tracker.replicaFeed("c", 2);
    await t.flush();
    expect(t.published).toEqual([["b", "c"]]);
    // c stops confirming the tenants: past the lag timeout it is dropped, and the change acknowledged by b.
    t.waitFeed(7);
    t.tracker.replicaFeed("b", 7);
    await t.advance(500);
    expect(t.feedOutcomes.get(7)).toBeUndefined();
    t.tracker.replicaApplied("c", 5);
    await t.advance(600);
    expect(t.published).toEqual([["b", "c"], ["b"]]);
    expect(t.feedOutcomes.get(7)).toBe("acked");
    // Back, holding the version acknowledged: added again.
    t.tracker.replicaFeed("c", 7);
    await t.flush();
    expect(t.published).toEqual([["b", "c"], ["b"], ["b", "c"]]);
  });

  it("raises the feed version a joining replica must hold once the new leader has stopped following", async () => {
    const t = setup(1, [], async () => true, { seq: 3, feed: 1 });
    t.tracker.raiseFeedFloor(2);
    t.tracker.replicaApplied("b", 3);
    t.tracker.replicaFeed("b", 1);
    await t.flush();
    expect(t.published).toEqual([]);
    t.tracker.replicaFeed("b", 2);
    await t.flush();
    expect(t.published).toEqual([["b"]]);
    t.tracker.raiseFeedFloor(0); // never lowered
    t.tracker.replicaApplied("c", 3);
    t.tracker.replicaFeed("c", 1);
    await t.flush();
    expect(t.published).toEqual([["b"]]);
  });

  it("refuses a required count below one", () => {
    expect(() => new InSyncTracker({ required: 0, lagTimeoutMs: 1, publish: async () => true, now: () => 0 })).toThrow(
      "required in-sync replicas must be ≥ 1, got 0",
    );
  });
});
