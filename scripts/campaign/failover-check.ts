// What the failover campaign checks, as functions of what it recorded (the writers' attempts, the
// faults, the keys each node holds at the end): the final checks and the figures of the summary.
import { quantileSorted } from "../../bench/stats.js";
import type { Fault, FaultKind } from "./failover-faults.js";
import type { Attempt } from "./failover-writers.js";

/**
 * Two leaderships acknowledging in the same period: an epoch acknowledged by two nodes, or a
 * write acknowledged in an epoch below one that had acknowledged before the write was even sent.
 */
export function overlaps(acks: readonly Attempt[]): string[] {
  const found: string[] = [];
  const nodeOfEpoch = new Map<number, string>();
  for (const a of acks) {
    if (a.epoch === 0) {
      found.push(`${a.key}: acknowledged by ${a.node} without a Strand-Epoch (a node that did not lead)`);
      continue;
    }
    const node = nodeOfEpoch.get(a.epoch);
    if (node === undefined) nodeOfEpoch.set(a.epoch, a.node);
    else if (node !== a.node) found.push(`epoch ${a.epoch} acknowledged by ${node} and by ${a.node} (${a.key})`);
  }
  // For each write, the highest epoch acknowledged before it was sent (acks by answer time).
  const byAnswer = [...acks].sort((x, y) => x.receivedAt - y.receivedAt);
  const bySend = [...acks].sort((x, y) => x.sentAt - y.sentAt);
  let highest = 0;
  let highestKey = "";
  let i = 0;
  for (const a of bySend) {
    while (i < byAnswer.length && byAnswer[i]!.receivedAt < a.sentAt) {
      if (byAnswer[i]!.epoch > highest) [highest, highestKey] = [byAnswer[i]!.epoch, byAnswer[i]!.key];
      i++;
    }
    if (a.epoch !== 0 && a.epoch < highest)
      found.push(`${a.key} acknowledged by ${a.node} in epoch ${a.epoch}, sent after epoch ${highest} acknowledged ${highestKey}`);
  }
  return found;
}

/** A paused leader's acknowledgement past the lease: when it was answered and sent, and when the node resumed (ms after the pause began). */
export interface LateAck {
  fault: number;
  key: string;
  afterMs: number;
  sentMs: number;
  resumedMs: number;
}

/**
 * Acknowledgements of a paused leader's old epoch answered later than the lease after the pause
 * began: its last etcd confirmation was before the pause, so each came past the lease.
 */
export function lateAcks(faults: readonly Fault[], acks: readonly Attempt[], leaseTtlMs: number): LateAck[] {
  const late: LateAck[] = [];
  faults.forEach((f, n) => {
    if (f.kind !== "leader-pause") return;
    for (const a of acks)
      if (a.node === f.target && a.epoch === f.epoch && a.receivedAt > f.at + leaseTtlMs)
        late.push({
          fault: n + 1,
          key: a.key,
          afterMs: Math.round(a.receivedAt - f.at),
          sentMs: Math.round(a.sentAt - f.at),
          resumedMs: Math.round(f.endedAt - f.at),
        });
  });
  return late;
}

/** What the writes lost with --sync-replicas 0 were acknowledged before: the first fault that began after each. */
export interface LostBeforeFault {
  /** 1-based; 0: after the last fault. */
  fault: number;
  kind: FaultKind | "none";
  target: string;
  project: number;
  tenants: number;
}

export function lostByFault(faults: readonly Fault[], lost: readonly Attempt[]): LostBeforeFault[] {
  const out = new Map<number, LostBeforeFault>();
  for (const a of lost) {
    const n = faults.findIndex((f) => f.at >= a.receivedAt);
    const f = faults[n];
    const entry = out.get(n + 1) ?? { fault: n + 1, kind: f?.kind ?? "none", target: f?.target ?? "", project: 0, tenants: 0 };
    if (a.tenant === undefined) entry.project++;
    else entry.tenants++;
    out.set(n + 1, entry);
  }
  return [...out.values()].sort((x, y) => x.fault - y.fault);
}

/** The longest time without any acknowledgement from the fault's start until the group was whole again. */
export function unavailableMs(fault: Fault, settledAt: number, acks: readonly Attempt[]): number {
  const times = acks
    .map((a) => a.receivedAt)
    .filter((t) => t > fault.at && t <= settledAt)
    .sort((a, b) => a - b);
  if (times.length === 0) return settledAt - fault.at;
  let longest = times[0]! - fault.at;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
  return longest;
}

/** From a leader's kill to the first write another leadership acknowledged; null when none did. */
export function failoverMs(fault: Fault, acks: readonly Attempt[]): number | null {
  let first: number | null = null;
  for (const a of acks)
    if (a.epoch > (fault.epoch ?? 0) && a.receivedAt > fault.at && (first === null || a.receivedAt < first)) first = a.receivedAt;
  return first === null ? null : first - fault.at;
}

export interface DataFindings {
  /** Acknowledged keys a node does not hold. */
  lost: string[];
  /** Keys a node holds that no writer sent. */
  phantoms: string[];
  /** Keys a node holds more than once. */
  duplicates: string[];
  /** Nodes whose keys differ from the first node's. */
  differing: string[];
}

export function checkData(held: ReadonlyMap<string, readonly string[]>, attempts: readonly Attempt[]): DataFindings {
  const sent = new Set(attempts.map((a) => a.key));
  const acked = attempts.filter((a) => a.status === 200).map((a) => a.key);
  const out: DataFindings = { lost: [], phantoms: [], duplicates: [], differing: [] };
  let reference: string | null = null;
  for (const [node, keys] of held) {
    const set = new Set(keys);
    if (set.size !== keys.length) {
      const seen = new Set<string>();
      for (const k of keys)
        if (seen.has(k)) out.duplicates.push(`${node}: ${k}`);
        else seen.add(k);
    }
    for (const k of acked) if (!set.has(k)) out.lost.push(`${node}: ${k}`);
    for (const k of set) if (!sent.has(k)) out.phantoms.push(`${node}: ${k}`);
    const sorted = [...set].sort().join("\n");
    if (reference === null) reference = sorted;
    else if (sorted !== reference) out.differing.push(node);
  }
  return out;
}

export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: Math.round(quantileSorted(sorted, 0.5)),
    p99: Math.round(quantileSorted(sorted, 0.99)),
    max: Math.round(sorted.at(-1)!),
  };
}

/** Windows per fault kind. */
export function byKind(values: readonly { kind: FaultKind; ms: number }[]): Partial<Record<FaultKind, Spread>> {
  const out: Partial<Record<FaultKind, Spread>> = {};
  const kinds = new Set(values.map((v) => v.kind));
  for (const kind of kinds) out[kind] = spread(values.filter((v) => v.kind === kind).map((v) => v.ms))!;
  return out;
}

/** Where byte-compared exports first differ (`of`: how many there should be). */
export function firstDifference(exports: readonly string[], of: number): string {
  if (exports.length < of) return `only ${exports.length} of ${of} exported`;
  const lines = exports.map((e) => e.split("\n"));
  for (let i = 0; ; i++) {
    const at = lines.map((l) => l[i]);
    if (at.every((l) => l === at[0])) {
      if (at[0] === undefined) return "none found";
      continue;
    }
    return `line ${i + 1}: ${at.map((l) => (l ?? "<end>").slice(0, 200)).join(" | ")}`;
  }
}
