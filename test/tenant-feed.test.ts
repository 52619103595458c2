// The leader's feed of tenant changes (server/tenants/tenant-feed.ts) that its replicas poll: a
// full listing for a replica that knows another feed (or none), then only what changed since the
// version it saw, drops included; a poll with nothing new waits for the next change. And a closed
// tenant's position marker (kept-positions.ts): written at close, read without opening the store,
// kept while the reopened store is only read, gone before its first change.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ClosedMarker, readClosedPosition } from "../server/tenants/kept-positions.js";
import { TenantFeed } from "../server/tenants/tenant-feed.js";
import { TenantRegistry } from "../server/tenants/tenant-registry.js";
import { tempDir } from "./support/server.js";

const list = () => [
  { name: "acme", at: { seq: 3, time: 30 } },
  { name: "beta", at: null },
];

describe("the tenant feed", () => {
  it("lists every tenant to a new reader, then only the changes since the version it saw", () => {
    const feed = new TenantFeed();
    expect(feed.answer(undefined, 0, list)).toEqual({ feed: feed.id, version: 0, full: true, tenants: list(), dropped: [] });
    expect(feed.answer("another-feed", 0, list).full).toBe(true);
    feed.committed("acme", { seq: 4, time: 40 });
    feed.committed("acme", { seq: 4, time: 40 }); // the same position: no change
    feed.committed("gamma", { seq: 0, time: null });
    expect(feed.answer(feed.id, 0, list)).toEqual({
      feed: feed.id,
      version: 2,
      full: false,
      tenants: [
        { name: "acme", at: { seq: 4, time: 40 } },
        { name: "gamma", at: { seq: 0, time: null } },
      ],
      dropped: [],
    });
    feed.dropped("gamma");
    feed.committed("acme", { seq: 5, time: 50 });
    expect(feed.answer(feed.id, 2, list)).toEqual({
      feed: feed.id,
      version: 4,
      full: false,
      tenants: [{ name: "acme", at: { seq: 5, time: 50 } }],
      dropped: ["gamma"],
    });
    expect(feed.answer(feed.id, 4, list)).toEqual({ feed: feed.id, version: 4, full: false, tenants: [], dropped: [] });
    // A version past the feed's (another process's numbers): the whole list again.
    expect(feed.answer(feed.id, 9, list).full).toBe(true);
  });

  it("wakes a waiting poll at the next change, and counts a reader live for its window", async () => {
    const feed = new TenantFeed(() => 0);
    expect(feed.readers.live(0)).toBe(false);
    feed.answer(undefined, 0, list);
    expect(feed.readers.live(10 * 60_000)).toBe(true);
    expect(feed.readers.live(10 * 60_000 + 1)).toBe(false);
    const waiting = feed.waitPast(0, 60_000);
    feed.committed("acme", { seq: 1, time: 1 });
    expect(await waiting).toBe(true);
    expect(await feed.waitPast(1, 0)).toBe(false);
  });
});

describe("a closed tenant's position", () => {
  it("is written when the tenant closes, read without opening it, and removed before its first change", async () => {
    const root = tempDir("strand-closed-position-");
    let at = { seq: 4, time: 1234 };
    const registry = new TenantRegistry({
      root,
      open: (dir) => {
        writeFileSync(join(dir, "data.mdb"), "");
        return { close: async () => {}, position: () => at };
      },
      appFor: () => ({ fetch: () => new Response("{}") }),
      idleMs: 0,
    });
    expect(registry.positionOf("acme")).toBe(null);
    registry.release((await registry.acquire("acme", true))!);
    expect(registry.positionOf("acme")).toEqual({ seq: 4, time: 1234 });
    await registry.sweep();
    expect([registry.isOpen("acme"), readClosedPosition(join(root, "acme"))]).toEqual([false, { seq: 4, time: 1234 }]);
    at = { seq: 5, time: 1300 };
    // Open again and only read: the marker stays (no fsync on a read); open, the store answers.
    registry.release((await registry.acquire("acme", false))!);
    expect([existsSync(join(root, "acme", "closed-seq")), registry.positionOf("acme")]).toEqual([true, { seq: 5, time: 1300 }]);
    const marker = new ClosedMarker(join(root, "acme"));
    marker.beforeChange();
    expect(existsSync(join(root, "acme", "closed-seq"))).toBe(false);
    marker.beforeChange();
    await registry.sweep();
    expect(registry.positionOf("acme")).toEqual({ seq: 5, time: 1300 });
    // A marker that does not parse tells nothing.
    mkdirSync(join(root, "beta"));
    writeFileSync(join(root, "beta", "closed-seq"), "5 x\n");
    expect(readClosedPosition(join(root, "beta"))).toBe(null);
  });
});
