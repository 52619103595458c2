// The synchronous-replication acknowledgement rule (server/cluster/in-sync.ts) on a fake clock:
// a write is acknowledged only when every member of a large-enough in-sync set holds it, and the
// set changes in etcd (here: a recorded publish) before it changes what gets acknowledged.
import { describe, expect, it } from "vitest";
import { type AckOutcome, InSyncTracker } from "../server/cluster/in-sync.js";

function setup(required: number, initial: string[] = [], answer: () => Promise<boolean> = async () => true) {
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
  );
  const outcomes = new Map<number, AckOutcome>();
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

  it("refuses a required count below one", () => {
    expect(() => new InSyncTracker({ required: 0, lagTimeoutMs: 1, publish: async () => true, now: () => 0 })).toThrow(
      "required in-sync replicas must be ≥ 1, got 0",
    );
  });
});
