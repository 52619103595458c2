// Gives back to the system the memory that closed tenants freed (issue 34: idle tenants hold no
// memory). Two parts of the process keep it after the stores are closed and their objects are
// garbage: V8 keeps its heap's pages (young generation grown to 32 MB, old pages half empty) until
// its memory reducer finds the process idle, 8 to 30 s later or not at all while anything
// allocates, and a plain or gc-extension collection gives none back (measured: heap 96 → 96 MB);
// glibc keeps the free pages inside its arenas, fragmented by the stores' opening and closing,
// until `malloc_trim` (at 10,000 tenants: 68 MB of its main arena against 4 MB in an empty server).
// Both are asked through Strand's native module (../native/native-module.ts).
import { type StrandNative, strandNative } from "../native/native-module.js";

/** What one release did: the time each part took. */
export interface MemoryReleased {
  heapMs: number;
  /** null: the C library is not glibc, which has no trim to ask. */
  allocatorMs: number | null;
}

/**
 * V8's low-memory collection, then the allocator's trim; synchronous, and as long as the live heap
 * is large (~80 ms at 26 MB live, ~300 ms at 120 MB, ~1.2 s at 350 MB): call it when the engine is
 * idle. The error when the native module is missing.
 */
export function releaseMemory(): MemoryReleased {
  const memory = strandNative();
  if ("missing" in memory) throw new Error(memory.missing);
  const started = performance.now();
  memory.native.lowMemoryNotification();
  const collected = performance.now();
  if (memory.native.mallocTrim === undefined) return { heapMs: collected - started, allocatorMs: null };
  memory.native.mallocTrim();
  return { heapMs: collected - started, allocatorMs: performance.now() - collected };
}

/** releaseMemory, or, without Strand's native module, a warning now and no release (null). */
export function releaseMemoryOrWarn(warn: (line: string) => void, memory: StrandNative = strandNative()): (() => MemoryReleased) | null {
  if (!("missing" in memory)) return releaseMemory;
  warn(`strand: idle tenants' memory will not be given back to the system until V8 and glibc do so themselves: ${memory.missing}`);
  return null;
}
