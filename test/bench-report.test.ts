// The bench's HTTP verdicts (bench/report.ts): servers that are not saturated are judged by CPU
// per request (their req/s is the load's), saturated ones by req/s.
import { describe, expect, it } from "vitest";
import type { Comparison, SideSummary } from "../bench/http-bench.js";
import { type BenchReport, emptyBenchReport, leadingRatio, verdicts } from "../bench/report.js";

function side(requestsPerSec: number, cpuUsPerRequest: number, cpuBusy: number): SideSummary {
  return { requestsPerSec, p50Ms: 1, p99Ms: 2, errors: 0, non2xx: 0, cpuUsPerRequest, cpuBusy, runs: [] };
}

function comparison(strand: SideSummary, floor: SideSummary): Comparison {
  return {
    key: "read",
    title: "point read",
    strand,
    floor,
    roundRatios: [strand.requestsPerSec / floor.requestsPerSec],
    ratio: strand.requestsPerSec / floor.requestsPerSec,
    cpuRatio: (floor.cpuUsPerRequest as number) / (strand.cpuUsPerRequest as number),
    valid: true,
  };
}

const report = (read: Comparison): BenchReport => ({ ...emptyBenchReport(), read });

describe("the HTTP verdicts", () => {
  it("judge servers that are not saturated by CPU per request", () => {
    // Both answer the load's 1,000 req/s; Strand spends twice the floor's CPU on each.
    const idle = comparison(side(1000, 200, 0.2), side(1000, 100, 0.1));
    expect(leadingRatio(idle)).toEqual({ ratio: 0.5, byCpu: true });
    expect(verdicts(report(idle))[0]).toMatchObject({ name: "read ratio (server CPU per request, floor/strand)", value: 0.5 });
  });

  it("judge saturated servers by requests per second", () => {
    const busy = comparison(side(4000, 240, 0.96), side(5000, 190, 0.95));
    expect(leadingRatio(busy)).toEqual({ ratio: 0.8, byCpu: false });
    expect(verdicts(report(busy))[0]).toMatchObject({ name: "read ratio", value: 0.8 });
  });
});
