// Seeded slices of the issue-14 campaigns (scripts/campaign/; `npm run campaign -- <name>` runs
// each at full size): two kill -9 runs of `strand serve` under the mixed write stream, one
// disk-full run, and a few thousand fuzzed HTTP and MCP requests. Each must find nothing: no lost
// acknowledged write, no index disagreeing with a scan, `strand verify` clean, no answer ≥ 500,
// no hang, every 4xx `{error, code}`. A failure prints the seed:
//   STRAND_CRASH_SEED=<seed> npx vitest run test/campaign.test.ts
import { describe, expect, it } from "vitest";
import { runDiskFull } from "../scripts/campaign/disk-full.js";
import { isErrorBody, runHttpFuzz } from "../scripts/campaign/http-fuzz.js";
import { runKill9 } from "../scripts/campaign/kill9.js";
import { crashSeed } from "./support/crash-seed.js";

/** Child servers compile the campaign project on each start: slow on a loaded machine. */
const SLOW = 300_000;

describe("campaign slices", () => {
  it(
    "kill -9: two runs lose no acknowledged write and leave every index agreeing with the scans",
    async () => {
      const { seed } = crashSeed("test/campaign.test.ts");
      const summary = await runKill9({ runs: 2, seed, writeMs: [300, 1000] });
      expect({ losses: summary.losses, findings: summary.findings }).toEqual({ losses: [], findings: [] });
      expect(summary.acknowledgedWrites).toBeGreaterThan(0);
      expect(summary.checks).toBeGreaterThan(summary.acknowledgedWrites);
      expect(summary.verifyRuns).toBe(3);
      expect(summary.restartMs).toHaveLength(2);
    },
    SLOW,
  );

  it(
    "disk full: 507 STORAGE_FULL, reads go on, a clean restart holds every acknowledged write",
    async () => {
      const { seed } = crashSeed("test/campaign.test.ts");
      const summary = await runDiskFull({ runs: 1, seed });
      expect(summary.findings).toEqual([]);
      expect(summary.storageFull).toBeGreaterThan(0);
      expect(summary.recovered).toBe(1);
    },
    SLOW,
  );

  it(
    "HTTP fuzz: 3,000 requests, none answered ≥ 500 or left hanging, every 4xx {error, code}",
    async () => {
      const { seed } = crashSeed("test/campaign.test.ts");
      const summary = await runHttpFuzz({ requests: 3000, seed, concurrency: 8 });
      expect(summary.findings).toEqual([]);
      expect(summary.serverErrors + summary.hangs + summary.noAnswer + summary.badErrorBodies).toBe(0);
      // The fuzz reaches the error paths and the happy ones.
      expect(Object.keys(summary.statuses)).toEqual(expect.arrayContaining(["200", "400", "404", "405"]));
    },
    SLOW,
  );

  it("an error body is {error, code}, or a JSON-RPC error at the MCP protocol endpoint only", () => {
    expect(isErrorBody('{"error":"no","code":"NOT_FOUND"}', false)).toBe(true);
    expect(isErrorBody('{"error":"no"}', false)).toBe(false);
    expect(isErrorBody("", false)).toBe(false);
    const rpc = '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}';
    expect(isErrorBody(rpc, true)).toBe(true);
    expect(isErrorBody(rpc, false)).toBe(false);
  });
});
