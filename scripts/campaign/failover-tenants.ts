// The failover campaign's tenants: the writers' tenant lanes write into a few tenants
// (`/t/<tenant>/AddItem`, each an isolated graph with its own commit log and sequence), and with
// --sync-replicas a tenant's write is acknowledged as the project's are, once the in-sync replicas
// hold it. At the end: each tenant's keys on the leader with its sequence there (`Strand-Commit`),
// then on each other node once it holds that sequence (`Strand-After`); every acknowledged write
// there, no key twice or unsent, every node the same keys and the same tenant folders; once the
// nodes are stopped, `strand verify` clean on every tenant folder and byte-identical `strand
// export`s of each tenant.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkData, firstDifference } from "./failover-check.js";
import type { FaultKind } from "./failover-faults.js";
import { type FailoverGroup, type GroupNode, readItems } from "./failover-group.js";
import type { Attempt } from "./failover-writers.js";
import { CLI, REPO_ROOT, verifyDir } from "./strand-child.js";

export interface TenantSummary {
  /** The tenants written to (none: the campaign wrote to the project's graph only). */
  names: string[];
  lanes: number;
  attempts: number;
  /** Answers to tenant writes by status and code, as the project's. */
  answers: Record<string, number>;
  acknowledged: number;
  steadyAcknowledged: number;
  /** Per tenant: writes acknowledged, its sequence on the final leader, the keys each node holds. */
  byTenant: Record<string, { acknowledged: number; seq: number; keys: number }>;
  /** "re-seeded the tenant" lines between a fault and the group being whole again, by fault kind. */
  reseeds: Partial<Record<FaultKind, number>>;
  /** Reads answered 200 with a Strand-Commit below their Strand-After (a replica claiming a sequence it had not reached). */
  stale: number;
  /** Acknowledged tenant writes gone from the final data with --sync-replicas 0 (documented, not a finding). */
  asyncLost: number;
  nodesAgree: boolean;
  /** Tenant folders (`<data>/tenants/<name>`, over all nodes), and how many `strand verify` found clean. */
  folders: number;
  /** Folders a replica set aside (`<data>/tenants-set-aside/`: a tenant its leader did not have), over all nodes. */
  setAside: number;
  verified: number;
  exportsIdentical: boolean;
}

export function emptyTenantSummary(names: readonly string[], lanes: number): TenantSummary {
  return {
    names: [...names],
    lanes,
    attempts: 0,
    answers: {},
    acknowledged: 0,
    steadyAcknowledged: 0,
    byTenant: {},
    reseeds: {},
    stale: 0,
    asyncLost: 0,
    nodesAgree: names.length === 0,
    folders: 0,
    setAside: 0,
    verified: 0,
    exportsIdentical: names.length === 0,
  };
}

export function totalTenantReseeds(group: FailoverGroup): number {
  return group.nodes.reduce((sum, n) => sum + n.tenantReseeds, 0);
}

/** What the tenant checks found: losses (acknowledged writes a node lacks) apart from the rest. */
export interface TenantFindings {
  lost: string[];
  findings: string[];
}

/**
 * With the writers stopped and the group whole: each tenant's keys on the leader, then on every
 * other node at the leader's sequence of that tenant, checked against the writers' attempts.
 */
export async function checkTenantData(
  group: FailoverGroup,
  leader: GroupNode,
  attempts: readonly Attempt[],
  summary: TenantSummary,
): Promise<TenantFindings> {
  const out: TenantFindings = { lost: [], findings: [] };
  let agree = true;
  for (const tenant of summary.names) {
    const sent = attempts.filter((a) => a.tenant === tenant);
    const acknowledged = sent.filter((a) => a.status === 200).length;
    const first = await readItems(leader.server!.url, tenant, null);
    if (first === null) {
      out.findings.push(`the leader ${leader.name} did not answer the keys of the tenant ${tenant} within 60 s`);
      agree = false;
      continue;
    }
    // A tenant no write created: every node must lack it too (its folders are compared below).
    const seq = first === "unknown" ? 0 : first.commit;
    const held = new Map<string, string[]>([[leader.name, first === "unknown" ? [] : first.keys]]);
    if (first !== "unknown")
      for (const node of group.nodes) {
        if (node === leader) continue;
        const read = await readItems(node.server!.url, tenant, seq);
        if (read === null || read === "unknown") {
          out.findings.push(`${node.name} did not reach sequence ${seq} of the tenant ${tenant} within 60 s`);
          continue;
        }
        if (read.commit < seq) {
          summary.stale++;
          out.findings.push(`${node.name} answered Strand-After ${seq} of the tenant ${tenant} at its sequence ${read.commit}`);
        }
        held.set(node.name, read.keys);
      }
    const data = checkData(held, sent);
    out.lost.push(...data.lost.map((l) => `acknowledged write to the tenant ${tenant} lost on ${l}`));
    out.findings.push(
      ...data.phantoms.map((p) => `the tenant ${tenant}: a key nobody sent: ${p}`),
      ...data.duplicates.map((d) => `the tenant ${tenant}: a key held twice: ${d}`),
      ...data.differing.map((n) => `${n} holds other keys of the tenant ${tenant} than ${leader.name}`),
    );
    if ((first !== "unknown" && held.size !== group.nodes.length) || data.differing.length > 0) agree = false;
    summary.byTenant[tenant] = { acknowledged, seq, keys: held.get(leader.name)!.length };
  }
  summary.nodesAgree = agree;
  return out;
}

/** The folders of `<data>/<under>` (whatever their names: a tenant nobody wrote to is a finding). */
function tenantFolders(dataDir: string, under = "tenants"): string[] {
  const root = join(dataDir, under);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** With the nodes stopped: every node the same tenant folders, each `strand verify` clean, each tenant's exports byte-identical. */
export function verifyTenantFolders(group: FailoverGroup, summary: TenantSummary, root: string): string[] {
  const findings: string[] = [];
  const written = new Set(summary.names);
  const reference = tenantFolders(group.nodes[0]!.dataDir);
  const exports = new Map<string, string[]>();
  for (const node of group.nodes) {
    const folders = tenantFolders(node.dataDir);
    summary.setAside += tenantFolders(node.dataDir, "tenants-set-aside").length;
    if (folders.join(",") !== reference.join(","))
      findings.push(`${node.name} holds the tenant folders [${folders.join(", ")}], ${group.nodes[0]!.name} [${reference.join(", ")}]`);
    for (const tenant of folders) {
      if (!written.has(tenant)) findings.push(`${node.name} holds a tenant nobody wrote to: ${tenant}`);
      const dir = join(node.dataDir, "tenants", tenant);
      summary.folders++;
      const verified = verifyDir(dir);
      if (verified.ok) summary.verified++;
      else findings.push(`strand verify ${node.name} tenant ${tenant}: ${verified.output}`);
      const out = join(root, `${node.name}-tenant-${tenant}.jsonl`);
      const r = spawnSync(process.execPath, [CLI, "export", "--data", dir, "--out", out], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        timeout: 300_000,
      });
      if (r.status !== 0) findings.push(`strand export ${node.name} tenant ${tenant}: ${r.stdout}${r.stderr}`);
      else exports.set(tenant, [...(exports.get(tenant) ?? []), readFileSync(out, "utf8")]);
    }
  }
  let identical = true;
  for (const [tenant, texts] of exports) {
    if (texts.length === group.nodes.length && texts.every((t) => t === texts[0])) continue;
    identical = false;
    findings.push(`the nodes' exports of the tenant ${tenant} differ: ${firstDifference(texts, group.nodes.length)}`);
  }
  summary.exportsIdentical = identical;
  return findings;
}
