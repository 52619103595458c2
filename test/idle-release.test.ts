import { describe, expect, it } from "vitest";
import { IdleRelease } from "../server/tenants/idle-release.js";
import { strandNative } from "../server/native/native-module.js";
import { releaseMemory, releaseMemoryOrWarn } from "../server/tenants/release-memory.js";

describe("giving back what closed tenants freed", () => {
  it("releases once after a close, when a whole tick saw no tenant request and none in flight", () => {
    let requests = 0;
    let busy = false;
    const done: string[] = [];
    const idle = new IdleRelease({
      requests: () => requests,
      busy: () => busy,
      release: () => {
        done.push(`release at ${requests}`);
        return { heapMs: 1, allocatorMs: 1 };
      },
    });
    // Nothing closed: quiet ticks release nothing.
    expect([idle.tick(), idle.tick()]).toEqual([null, null]);
    idle.closed();
    requests = 5; // requests since the last tick: not quiet yet
    expect(idle.tick()).toBeNull();
    busy = true; // a request still in flight (or a tenant closing)
    expect(idle.tick()).toBeNull();
    busy = false;
    expect(idle.tick()).toEqual({ heapMs: 1, allocatorMs: 1 });
    // Owed once: later quiet ticks release nothing until another tenant closes.
    expect([idle.tick(), idle.tick()]).toEqual([null, null]);
    idle.closed();
    expect(idle.tick()).toEqual({ heapMs: 1, allocatorMs: 1 });
    expect({ done, releases: idle.releases }).toEqual({ done: ["release at 5", "release at 5"], releases: 2 });
  });

  it("without a way to release (--tenant-memory-release false, or no native module) releases nothing, and says why once", () => {
    const idle = new IdleRelease({ requests: () => 0, busy: () => false, release: null });
    idle.closed();
    expect([idle.tick(), idle.tick(), idle.releases]).toEqual([null, null, 0]);
    const lines: string[] = [];
    const release = releaseMemoryOrWarn((line) => lines.push(line), { missing: "build/Release/strand_native.node does not load" });
    expect({ release, lines }).toEqual({
      release: null,
      lines: [
        "strand: idle tenants' memory will not be given back to the system until V8 and glibc do so themselves: build/Release/strand_native.node does not load",
      ],
    });
    expect(releaseMemoryOrWarn((line) => lines.push(line))).toBe(releaseMemory);
  });

  it("reaches V8 and glibc's malloc_trim through the native module npm ci builds", () => {
    // On this machine (glibc) the module must load; its reason is shown when it does not.
    expect(strandNative()).not.toHaveProperty("missing");
    const released = releaseMemory();
    expect({ heap: released.heapMs >= 0, allocator: typeof released.allocatorMs }).toEqual({ heap: true, allocator: "number" });
  });
});
