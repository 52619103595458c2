// Kinds of request measured side by side on one server, one request at a time: blocks of each
// kind alternate (the order reversed every round), and per kind the server's CPU per request
// (from /proc) and the p50 latency. Shared by the idempotency and ad-hoc benches.
import { processCpuSeconds } from "./proc-cpu.js";
import { quantileSorted } from "./stats.js";

const BLOCK = 100;

export interface RequestSide<K extends string> {
  kind: K;
  calls: number;
  /** Server CPU (user + system) per request, µs; null without /proc. */
  cpuUs: number | null;
  p50Ms: number;
}

export async function measureBlocks<K extends string>(
  kinds: readonly K[],
  call: Record<K, () => Promise<unknown>>,
  calls: number,
  pid: number | undefined,
): Promise<RequestSide<K>[]> {
  const ms = new Map<K, number[]>(kinds.map((k) => [k, []]));
  const cpu = new Map<K, number>(kinds.map((k) => [k, 0]));
  let haveCpu = processCpuSeconds(pid) !== null;
  for (let done = 0, round = 0; done < calls; done += BLOCK, round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      const before = processCpuSeconds(pid);
      for (let i = 0; i < BLOCK; i++) {
        const t = performance.now();
        await call[kind]();
        ms.get(kind)!.push(performance.now() - t);
      }
      const after = processCpuSeconds(pid);
      if (before === null || after === null) haveCpu = false;
      else cpu.set(kind, cpu.get(kind)! + after - before);
    }
  }
  return kinds.map((kind) => {
    const sorted = [...ms.get(kind)!].sort((a, b) => a - b);
    return {
      kind,
      calls: sorted.length,
      cpuUs: haveCpu ? (cpu.get(kind)! / sorted.length) * 1e6 : null,
      p50Ms: quantileSorted(sorted, 0.5),
    };
  });
}

/** Server CPU per request of `kind` (its p50 latency when there is no /proc). */
export function measureOf<K extends string>(sides: readonly RequestSide<K>[], kind: K): number {
  const side = sides.find((s) => s.kind === kind)!;
  return side.cpuUs ?? side.p50Ms;
}

/** The table's header and one row per kind. */
export function renderSides<K extends string>(title: string, sides: readonly RequestSide<K>[]): string[] {
  const lines = [title, "  request        calls   server CPU us/req   p50 ms"];
  for (const s of sides) {
    lines.push(
      `  ${s.kind.padEnd(14)}${String(s.calls).padStart(6)}   ${(s.cpuUs === null ? "n/a" : s.cpuUs.toFixed(0)).padStart(17)}   ${s.p50Ms.toFixed(3).padStart(6)}`,
    );
  }
  return lines;
}
