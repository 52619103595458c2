// The failover campaign (issue 37), Jepsen-style: a 3-member etcd cluster, a leader and two
// replicas (`strand serve --etcd`), writer lanes recording every answer (failover-writers.ts). A
// steady phase first (writes, no fault: no node may re-seed), then seeded faults one at a time
// (failover-faults.ts), each injected into a whole group and followed by waiting until the group
// is whole again. At the end the writers stop, the replicas catch up, and the checks run
// (failover-check.ts): no acknowledged write lost (with --sync-replicas 1; with 0 losses are
// documented and counted), no key twice, none nobody sent, every node holding the same keys, no
// two leaderships acknowledging in the same period, no paused leader's acknowledgement later than
// the lease, `strand verify` clean on every store and byte-identical `strand export`s. The same for
// the tenants the tenant lanes write to (failover-tenants.ts), each read at its own sequence.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EtcdCluster, startEtcdCluster } from "./etcd-cluster.js";
import {
  byKind,
  checkData,
  failoverMs,
  firstDifference,
  lateAcks,
  type LostBeforeFault,
  lostByFault,
  overlaps,
  type Spread,
  spread,
  unavailableMs,
} from "./failover-check.js";
import { type Fault, FAULT_KINDS, type FaultKind, inject } from "./failover-faults.js";
import { FailoverGroup, type GroupNode, readItems, readStatus } from "./failover-group.js";
import { checkTenantData, emptyTenantSummary, type TenantSummary, totalTenantReseeds, verifyTenantFolders } from "./failover-tenants.js";
import { type Attempt, Writers } from "./failover-writers.js";
import { between, type Random, seededRandom } from "./random.js";
import { CLI, REPO_ROOT, sleep, verifyDir } from "./strand-child.js";

export interface FailoverOptions {
  /** How many faults, drawn in turn from `kinds` (each kind equally often, in a seeded order). */
  faults: number;
  seed: number;
  syncReplicas: 0 | 1;
  kinds?: readonly FaultKind[];
  leaseTtlS?: number;
  /** Writes with no fault before the first one (no node may re-seed meanwhile). */
  steadyMs?: number;
  lanes?: number;
  /** Tenants written to besides the project's graph (`c0`, `c1`, …; default 3, 0: none), and their lanes (default 2). */
  tenants?: number;
  tenantLanes?: number;
  log?: (line: string) => void;
  stopped?: () => boolean;
}

export interface FailoverSummary {
  syncReplicas: 0 | 1;
  seed: number;
  leaseTtlMs: number;
  faults: number;
  faultsByKind: Partial<Record<FaultKind, number>>;
  /** Writes to the project's own graph (the tenants' are in `tenants`). */
  attempts: number;
  /** Answers by status and code ("200", "503 NOT_REPLICATED", "0": no answer). */
  answers: Record<string, number>;
  acknowledged: number;
  steady: { ms: number; acknowledged: number; reseeds: number };
  /** Re-seeds between a fault and the group being whole again, by fault kind. */
  reseeds: Partial<Record<FaultKind, number>>;
  /** Leader kill → first write acknowledged by the next leadership (ms). */
  failoverMs: Spread | null;
  /** Failovers slower than the lease + 1 s (the target), with what each node last printed. */
  slowFailovers: { fault: number; ms: number; nodes: string }[];
  /** The longest time without an acknowledgement, from each fault until the group was whole (ms). */
  unavailableMs: Partial<Record<FaultKind, Spread>>;
  /** How long after its pause began a paused leader last acknowledged in its old epoch (ms), per pause. */
  pausedLeaderLastAckMs: Spread | null;
  /** Acknowledged writes gone from the final data with --sync-replicas 0 (documented, not a finding). */
  asyncLost: number;
  /** With --sync-replicas 0: the lost writes (the project's and the tenants') by the fault that began next after their acknowledgement. */
  asyncLostByFault: LostBeforeFault[];
  final: { keys: number; nodesAgree: boolean; exportsIdentical: boolean; verified: number };
  /** The tenants' writes and checks. */
  tenants: TenantSummary;
  /** Reads of the project's graph answered 200 with a Strand-Commit below their Strand-After. */
  stale: number;
  losses: string[];
  findings: string[];
}

export async function runFailover(options: FailoverOptions): Promise<FailoverSummary> {
  const random = seededRandom(options.seed);
  const log = options.log ?? (() => {});
  const leaseTtlS = options.leaseTtlS ?? 3;
  const leaseTtlMs = leaseTtlS * 1000;
  const t0 = performance.now();
  const now = (): number => performance.now() - t0;
  const schedule = scheduleOf(options.kinds ?? FAULT_KINDS, options.faults, random);
  const root = mkdtempSync(join(tmpdir(), "strand-campaign-failover-"));
  const tenantNames = Array.from({ length: options.tenants ?? 3 }, (_, i) => `c${i}`);
  const tenantLanes = tenantNames.length === 0 ? 0 : (options.tenantLanes ?? 2);
  const summary: FailoverSummary = {
    syncReplicas: options.syncReplicas,
    seed: options.seed,
    leaseTtlMs,
    faults: 0,
    faultsByKind: {},
    attempts: 0,
    answers: {},
    acknowledged: 0,
    steady: { ms: options.steadyMs ?? 0, acknowledged: 0, reseeds: 0 },
    reseeds: {},
    failoverMs: null,
    slowFailovers: [],
    unavailableMs: {},
    pausedLeaderLastAckMs: null,
    asyncLost: 0,
    asyncLostByFault: [],
    final: { keys: 0, nodesAgree: false, exportsIdentical: false, verified: 0 },
    tenants: emptyTenantSummary(tenantNames, tenantLanes),
    stale: 0,
    losses: [],
    findings: [],
  };
  let etcd: EtcdCluster | null = null;
  let group: FailoverGroup | null = null;
  try {
    etcd = await startEtcdCluster(3);
    group = new FailoverGroup({
      endpoints: etcd.endpoints,
      group: `campaign-${options.seed}`,
      syncReplicas: options.syncReplicas,
      leaseTtlS,
      syncTimeoutMs: 5_000,
      root,
    });
    await group.start();
    if ((await group.waitStable(60_000)) === null) throw new Error(`the group never became whole: ${group.describe()}`);
    const writers = new Writers(group, {
      lanes: options.lanes ?? 4,
      tenants: tenantNames,
      tenantLanes,
      prefix: `s${options.syncReplicas}`,
      now,
    });
    writers.start();

    // Steady writes: a replica that re-seeds here does so with no fault (issue 37 finding 1).
    await sleep(summary.steady.ms);
    const steadyAcks = writers.acknowledged();
    summary.steady.acknowledged = steadyAcks.filter((a) => a.tenant === undefined).length;
    summary.tenants.steadyAcknowledged = steadyAcks.length - summary.steady.acknowledged;
    summary.steady.reseeds = totalReseeds(group);
    if (summary.steady.reseeds > 0) summary.findings.push(`steady writes: ${summary.steady.reseeds} re-seeds with no fault`);
    const steadyTenantReseeds = totalTenantReseeds(group);
    if (steadyTenantReseeds > 0) summary.findings.push(`steady writes: ${steadyTenantReseeds} tenant re-seeds with no fault`);
    log(
      `sync ${options.syncReplicas}: steady ${summary.steady.ms} ms, ${summary.steady.acknowledged} writes acknowledged` +
        ` (and ${summary.tenants.steadyAcknowledged} to ${tenantNames.length} tenants), ${summary.steady.reseeds} re-seeds`,
    );

    const faults: Fault[] = [];
    const windows: { kind: FaultKind; ms: number }[] = [];
    const failovers: number[] = [];
    for (const [n, kind] of schedule.entries()) {
      if (options.stopped?.() === true) break;
      const whole = await group.waitStable(60_000);
      if (whole === null) {
        summary.findings.push(`before fault ${n + 1}: the group was not whole within 60 s: ${group.describe()}`);
        break;
      }
      await sleep(between(random, 300, 1_500));
      const leader: GroupNode = group.stable() ?? whole;
      const reseedsBefore = totalReseeds(group);
      const tenantReseedsBefore = totalTenantReseeds(group);
      const fault = await inject(kind, { group, etcd, writers, random, leaseTtlMs, now }, leader);
      faults.push(fault);
      summary.faults++;
      summary.faultsByKind[kind] = (summary.faultsByKind[kind] ?? 0) + 1;
      const settled = await group.waitStable(60_000);
      const settledAt = now();
      if (settled === null)
        summary.findings.push(
          `fault ${n + 1} (${kind} of ${fault.target}): the group was not whole within 60 s after: ${group.describe()}`,
        );
      const acks = writers.acknowledged();
      windows.push({ kind, ms: unavailableMs(fault, settledAt, acks) });
      const reseeds = totalReseeds(group) - reseedsBefore;
      if (reseeds > 0) summary.reseeds[kind] = (summary.reseeds[kind] ?? 0) + reseeds;
      const tenantReseeds = totalTenantReseeds(group) - tenantReseedsBefore;
      if (tenantReseeds > 0) summary.tenants.reseeds[kind] = (summary.tenants.reseeds[kind] ?? 0) + tenantReseeds;
      let note = "";
      if (kind === "leader-kill") {
        const ms = failoverMs(fault, acks);
        if (ms === null) summary.findings.push(`fault ${n + 1}: no leadership after ${fault.epoch} acknowledged a write after the kill`);
        else failovers.push(ms);
        if (ms !== null && ms > leaseTtlMs + 1_000)
          summary.slowFailovers.push({ fault: n + 1, ms: Math.round(ms), nodes: group.lastLines(12) });
        note = ms === null ? ", no failover" : `, failover ${Math.round(ms)} ms`;
      }
      log(
        `sync ${options.syncReplicas}: fault ${n + 1}/${schedule.length} ${kind} of ${fault.target}${fault.pausedMs === undefined ? "" : ` for ${Math.round(fault.pausedMs)} ms`}` +
          `${note}, unavailable ${Math.round(windows.at(-1)!.ms)} ms, ${reseeds} re-seeds` +
          `${tenantNames.length === 0 ? "" : `, ${tenantReseeds} tenant re-seeds`}; ${acks.length} acknowledged so far`,
      );
    }
    log(`sync ${options.syncReplicas}: stopping the writers`);
    await writers.stop();
    const acks = writers.acknowledged();
    const projectAttempts = writers.attempts.filter((a) => a.tenant === undefined);
    const tenantAttempts = writers.attempts.filter((a) => a.tenant !== undefined);
    summary.attempts = projectAttempts.length;
    summary.acknowledged = projectAttempts.filter((a) => a.status === 200).length;
    summary.answers = answersOf(projectAttempts);
    summary.tenants.attempts = tenantAttempts.length;
    summary.tenants.acknowledged = tenantAttempts.filter((a) => a.status === 200).length;
    summary.tenants.answers = answersOf(tenantAttempts);
    summary.failoverMs = spread(failovers);
    summary.unavailableMs = byKind(windows);
    summary.findings.push(...overlaps(acks).map((m) => `overlapping acknowledgements: ${m}`));
    const late = lateAcks(faults, acks, leaseTtlMs);
    summary.findings.push(
      ...late.map(
        (l) =>
          `fault ${l.fault}: ${l.key} acknowledged by the paused leader ${l.afterMs} ms after its pause began (lease ${leaseTtlMs} ms;` +
          ` sent ${l.sentMs} ms after it began, the node resumed after ${l.resumedMs} ms)`,
      ),
    );
    summary.pausedLeaderLastAckMs = spread(lastAcksOfPausedLeaders(faults, acks));

    await finalChecks(group, writers, faults, summary, root, log);
  } finally {
    await group?.stop().catch(() => {});
    await etcd?.stop();
    rmSync(root, { recursive: true, force: true });
  }
  return summary;
}

/** Each kind equally often (the first ones once more when `count` is not a multiple), in a seeded order. */
function scheduleOf(kinds: readonly FaultKind[], count: number, random: Random): FaultKind[] {
  const out = Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Answers by status and code ("200", "503 NOT_REPLICATED", "0": no answer). */
function answersOf(attempts: readonly Attempt[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of attempts) {
    const label = a.code === undefined ? String(a.status) : `${a.status} ${a.code}`;
    out[label] = (out[label] ?? 0) + 1;
  }
  return out;
}

function totalReseeds(group: FailoverGroup): number {
  return group.nodes.reduce((sum, n) => sum + n.reseeds, 0);
}

function lastAcksOfPausedLeaders(faults: readonly Fault[], acks: readonly { node: string; epoch: number; receivedAt: number }[]): number[] {
  const out: number[] = [];
  for (const f of faults) {
    if (f.kind !== "leader-pause") continue;
    let last: number | null = null;
    for (const a of acks)
      if (a.node === f.target && a.epoch === f.epoch && a.receivedAt > f.at) last = Math.max(last ?? 0, a.receivedAt - f.at);
    if (last !== null) out.push(last);
  }
  return out;
}

/** The replicas catch up; every node's keys (the project's, then each tenant's), then (stopped) `strand verify` and `strand export` of every store. */
async function finalChecks(
  group: FailoverGroup,
  writers: Writers,
  faults: readonly Fault[],
  summary: FailoverSummary,
  root: string,
  log: (line: string) => void,
): Promise<void> {
  const leader = await group.waitStable(60_000);
  if (leader === null) {
    summary.findings.push(`after the writers stopped, the group was not whole within 60 s: ${group.describe()}`);
    return;
  }
  const target = (await readStatus(leader.server!.url))?.seq ?? 0;
  log(`sync ${summary.syncReplicas}: the group is whole; reading every node's keys at sequence ${target}`);
  const held = new Map<string, string[]>();
  for (const node of group.nodes) {
    const read = await readItems(node.server!.url, undefined, target);
    if (read === null || read === "unknown") {
      summary.findings.push(`${node.name} did not reach sequence ${target} within 60 s`);
      continue;
    }
    if (read.commit < target) {
      summary.stale++;
      summary.findings.push(`${node.name} answered Strand-After ${target} at its sequence ${read.commit}`);
    }
    held.set(node.name, read.keys);
  }
  const data = checkData(
    held,
    writers.attempts.filter((a) => a.tenant === undefined),
  );
  const lost = [...new Set(data.lost.map((l) => l.slice(l.indexOf(": ") + 2)))];
  if (summary.syncReplicas > 0) summary.losses.push(...data.lost.map((l) => `acknowledged write lost on ${l}`));
  else summary.asyncLost = lost.length;
  summary.findings.push(
    ...data.phantoms.map((p) => `a key nobody sent: ${p}`),
    ...data.duplicates.map((d) => `a key held twice: ${d}`),
    ...data.differing.map((n) => `${n} holds other keys than ${group.nodes[0]!.name}`),
  );
  summary.final.keys = held.get(group.nodes[0]!.name)?.length ?? 0;
  summary.final.nodesAgree = held.size === 3 && data.differing.length === 0;

  if (summary.tenants.names.length > 0) {
    log(
      `sync ${summary.syncReplicas}: reading the keys of the tenants ${summary.tenants.names.join(", ")} on every node, at each one's sequence`,
    );
    const tenants = await checkTenantData(group, leader, writers.attempts, summary.tenants);
    if (summary.syncReplicas > 0) summary.losses.push(...tenants.lost);
    else {
      const tenantLost = new Set(tenants.lost.map((l) => l.slice(l.lastIndexOf(": ") + 2)));
      summary.tenants.asyncLost = tenantLost.size;
      for (const key of tenantLost) lost.push(key);
    }
    summary.findings.push(...tenants.findings);
  }
  if (summary.syncReplicas === 0) {
    const gone = new Set(lost);
    summary.asyncLostByFault = lostByFault(
      faults,
      writers.acknowledged().filter((a) => gone.has(a.key)),
    );
  }

  log(`sync ${summary.syncReplicas}: stopping the nodes; strand verify and strand export on each`);
  summary.findings.push(...(await group.stop()));
  const exports: string[] = [];
  for (const node of group.nodes) {
    const verified = verifyDir(node.dataDir);
    if (verified.ok) summary.final.verified++;
    else summary.findings.push(`strand verify ${node.name}: ${verified.output}`);
    const out = join(root, `${node.name}.jsonl`);
    const r = spawnSync(process.execPath, [CLI, "export", "--data", node.dataDir, "--out", out], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 300_000,
    });
    if (r.status !== 0) summary.findings.push(`strand export ${node.name}: ${r.stdout}${r.stderr}`);
    else exports.push(readFileSync(out, "utf8"));
  }
  summary.final.exportsIdentical = exports.length === 3 && exports.every((e) => e === exports[0]);
  if (!summary.final.exportsIdentical) summary.findings.push(`the nodes' exports differ: ${firstDifference(exports, 3)}`);
  log(
    `sync ${summary.syncReplicas}: final ${summary.final.keys} keys on each node, exports identical ${summary.final.exportsIdentical}, ${summary.final.verified}/3 verified`,
  );
  if (summary.tenants.names.length === 0) return;
  summary.findings.push(...verifyTenantFolders(group, summary.tenants, root));
  const t = summary.tenants;
  log(
    `sync ${summary.syncReplicas}: tenants ${t.names.map((n) => `${n} ${t.byTenant[n]?.keys ?? "?"} keys`).join(", ")}, exports identical ${t.exportsIdentical}, ${t.verified}/${t.folders} tenant folders verified`,
  );
}
