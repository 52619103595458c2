// The tenants bench (bench/tenants.ts) at a small size: it writes every tenant, finds them all
// closed once idle, opens each on its first request (which checks each holds its 100 records),
// and measures a tenant's read beside the default's. Figures only; no timing is asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

// The compiled bench: it starts dist/cli/strand.js relative to its own folder (bench/servers.ts).
const COMPILED = "../dist/bench/tenants.js";

it("reports memory with every tenant idle, the first request to one, and an open one vs the default", async () => {
  const root = mkdtempSync(join(tmpdir(), "strand-bench-tenants-"));
  try {
    const { renderTenants, runTenantsBench } = (await import(COMPILED)) as typeof import("../bench/tenants.js");
    const result = await runTenantsBench({ tenants: 5, calls: 100, settleSeconds: 1, root, log: () => {} });
    expect({
      tenants: result.tenants,
      recordsEach: result.recordsEach,
      runs: result.memory.map((m) => [m.malloc, m.firstRequest.samples, m.settleSeconds]),
    }).toEqual({
      tenants: 5,
      recordsEach: 100,
      runs: [
        ["glibc defaults", 5, 1],
        ["tuned", 5, 1],
      ],
    });
    expect(result.sides.map((s) => [s.kind, s.calls])).toEqual([
      ["default read", 100],
      ["tenant read", 100],
    ]);
    expect(renderTenants(result)).toContain("first request to an idle tenant");
    expect(renderTenants(result)).toContain("1 s later");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);
