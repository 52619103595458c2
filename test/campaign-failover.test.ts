// A seeded slice of the failover campaign (scripts/campaign/failover.ts; `npm run campaign --
// failover` runs it at full size): a real 3-member etcd cluster, a leader and two replicas, writers
// recording every answer, two of them writing into the tenants c0, c1 and c2. With --sync-replicas
// 1, one fault of each kind: no acknowledged write lost, the project's or a tenant's, no key twice
// or unsent, every node the same keys (each tenant's read at its own sequence) and byte-identical
// exports, verify clean on every store and tenant folder, no two leaderships acknowledging in the
// same period. With --sync-replicas 0, paused leaders: none acknowledges past its lease. A failure
// prints the seed:
//   STRAND_CRASH_SEED=<seed> npx vitest run test/campaign-failover.test.ts
// Needs etcd (Debian's etcd-server; .ci/run installs it): without it this test fails, saying so.
import { describe, expect, it } from "vitest";
import { runFailover } from "../scripts/campaign/failover.js";
import { FAULT_KINDS } from "../scripts/campaign/failover-faults.js";
import { crashSeed } from "./support/crash-seed.js";

const SLOW = 400_000;

describe("failover campaign slices", () => {
  it(
    "sync 1: one fault of each kind loses no acknowledged write and leaves identical, verified stores",
    async () => {
      const { seed } = crashSeed("test/campaign-failover.test.ts");
      const summary = await runFailover({ faults: FAULT_KINDS.length, seed, syncReplicas: 1, leaseTtlS: 2, steadyMs: 2_000 });
      expect({ losses: summary.losses, findings: summary.findings }).toEqual({ losses: [], findings: [] });
      expect(summary.faultsByKind).toEqual(Object.fromEntries(FAULT_KINDS.map((k) => [k, 1])));
      expect(summary.final).toEqual({ keys: summary.final.keys, nodesAgree: true, exportsIdentical: true, verified: 3 });
      expect(summary.final.keys).toBeGreaterThanOrEqual(summary.acknowledged);
      expect(summary.steady.reseeds).toBe(0);
      expect(summary.failoverMs?.n).toBe(1);
      // The tenants: every one written to and acknowledged, the same on every node, 9 clean folders.
      const tenants = summary.tenants;
      expect(tenants.names).toEqual(["c0", "c1", "c2"]);
      for (const name of tenants.names) {
        expect(tenants.byTenant[name]!.acknowledged, name).toBeGreaterThan(0);
        expect(tenants.byTenant[name]!.keys, name).toBeGreaterThanOrEqual(tenants.byTenant[name]!.acknowledged);
      }
      expect(tenants.acknowledged).toBe(tenants.names.reduce((sum, n) => sum + tenants.byTenant[n]!.acknowledged, 0));
      expect(tenants).toMatchObject({ stale: 0, nodesAgree: true, exportsIdentical: true, folders: 9, verified: 9 });
    },
    SLOW,
  );

  it(
    "sync 0: a paused leader acknowledges nothing past its lease, and the group converges",
    async () => {
      const { seed } = crashSeed("test/campaign-failover.test.ts");
      const summary = await runFailover({ faults: 2, seed, syncReplicas: 0, kinds: ["leader-pause"], leaseTtlS: 2, steadyMs: 1_000 });
      expect({ losses: summary.losses, findings: summary.findings }).toEqual({ losses: [], findings: [] });
      expect(summary.faultsByKind).toEqual({ "leader-pause": 2 });
      expect(summary.final).toEqual({ keys: summary.final.keys, nodesAgree: true, exportsIdentical: true, verified: 3 });
      expect(summary.tenants).toMatchObject({ nodesAgree: true, exportsIdentical: true, folders: 9, verified: 9 });
    },
    SLOW,
  );
});
