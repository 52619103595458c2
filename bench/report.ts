// The end of a bench run: a table for people and one `BENCH_JSON {...}` line for tools, both with
// Strand/floor ratios and PASS/MISS against the targets.
import { cpus } from "node:os";
import type { Comparison } from "./http-bench.js";
import type { BenchOptions } from "./options.js";
import type { ScanResult } from "./scan.js";
import type { IndexWhereResult } from "./index-where.js";
import type { TraversalResult } from "./traversal.js";
import { COUNT_TARGET_RATIO } from "./counts.js";
import { BM25_TARGET_P99_MS, renderBm25, type Bm25BenchResult } from "./bm25.js";
import { renderRestart, type RestartResult } from "./vector-restart.js";
import { VECTOR_TARGETS } from "./vector.js";
import type { VectorBenchResult } from "./vector-suite.js";
import { renderStartup, STARTUP_TARGET_MS, type StartupResult } from "./startup.js";

export const TARGETS = {
  readRatio: 0.6,
  readP99Ms: 5,
  writeRatio: 0.4,
  twoHopMeanUs: 200,
  /** Each scan query's mean time per call, at most this many times its hand-written floor's (issue 5). */
  scanRatio: 2,
} as const;

export interface Verdict {
  name: string;
  target: string;
  value: number;
  pass: boolean;
}

export interface BenchReport {
  read: Comparison | null;
  write: Comparison | null;
  traversal: TraversalResult | null;
  scan: ScanResult | null;
  /** WHERE through an INDEX vs the same WHERE as a full scan (issue 11). */
  indexWhere: IndexWhereResult | null;
  vector: VectorBenchResult | null;
  bm25: Bm25BenchResult | null;
  restart: RestartResult | null;
  startup: StartupResult | null;
}

/** Below this share of one core, a server is not saturated: its CPU per request, not its req/s, says what a request costs. */
const UNSATURATED_BUSY = 0.8;

/** The comparison's figure for its verdict: CPU per request (floor ÷ Strand) when neither server is saturated, else req/s. */
export function leadingRatio(c: Comparison): { ratio: number; byCpu: boolean } {
  const busy = [c.strand.cpuBusy, c.floor.cpuBusy];
  const byCpu = c.cpuRatio !== null && busy.every((b) => b !== null && b < UNSATURATED_BUSY);
  return { ratio: byCpu ? (c.cpuRatio as number) : c.ratio, byCpu };
}

/** A report with nothing measured yet: each bench fills its part. */
export function emptyBenchReport(): BenchReport {
  return { read: null, write: null, traversal: null, scan: null, indexWhere: null, vector: null, bm25: null, restart: null, startup: null };
}

export function verdicts(report: BenchReport): Verdict[] {
  const out: Verdict[] = [];
  if (report.read) {
    const lead = leadingRatio(report.read);
    out.push({
      name: lead.byCpu ? "read ratio (server CPU per request, floor/strand)" : "read ratio",
      target: `>= ${TARGETS.readRatio}`,
      value: lead.ratio,
      pass: lead.ratio >= TARGETS.readRatio,
    });
    const p99 = report.read.strand.p99Ms;
    out.push({ name: "read p99 ms", target: `<= ${TARGETS.readP99Ms}`, value: p99, pass: p99 <= TARGETS.readP99Ms });
  }
  if (report.write) {
    const lead = leadingRatio(report.write);
    out.push({
      name: lead.byCpu ? "write ratio (server CPU per request, floor/strand)" : "write ratio",
      target: `>= ${TARGETS.writeRatio}`,
      value: lead.ratio,
      pass: lead.ratio >= TARGETS.writeRatio,
    });
  }
  if (report.traversal) {
    const us = report.traversal.strand.meanUs;
    out.push({ name: "2-hop mean us", target: `<= ${TARGETS.twoHopMeanUs}`, value: us, pass: us <= TARGETS.twoHopMeanUs });
    for (const r of report.traversal.counts.rows.filter((row) => row.name.endsWith("COUNT"))) {
      out.push({
        name: `${r.name} / SQLite time`,
        target: `<= ${COUNT_TARGET_RATIO}`,
        value: r.ratio,
        pass: r.ratio <= COUNT_TARGET_RATIO,
      });
    }
  }
  for (const q of report.scan?.queries ?? []) {
    out.push({ name: `${q.query} ratio`, target: `<= ${TARGETS.scanRatio}`, value: q.ratio, pass: q.ratio <= TARGETS.scanRatio });
  }
  if (report.vector) {
    const ratio = report.vector.inProcess.headline.ratio;
    out.push({
      name: "SearchV in-process / raw hnswlib QPS",
      target: `>= ${VECTOR_TARGETS.searchRatio}`,
      value: ratio,
      pass: ratio >= VECTOR_TARGETS.searchRatio,
    });
    const add = report.vector.http?.add.strand.requestsPerSec;
    if (add !== undefined)
      out.push({
        name: "AddV inserts/s over HTTP",
        target: `>= ${VECTOR_TARGETS.addPerSec}`,
        value: add,
        pass: add >= VECTOR_TARGETS.addPerSec,
      });
  }
  const bm25 = report.bm25?.timings.find((t) => t.terms === 3);
  if (bm25)
    out.push({
      name: "SearchBM25 3-term p99 ms",
      target: `<= ${BM25_TARGET_P99_MS}`,
      value: bm25.p99Ms,
      pass: bm25.p99Ms <= BM25_TARGET_P99_MS,
    });
  const large = report.startup?.rows.find((r) => r.queries >= 200 && r.cli === "this build");
  if (large)
    out.push({
      name: "warm startup ms, 250 queries",
      target: `<= ${STARTUP_TARGET_MS}`,
      value: large.warmMedianMs,
      pass: large.warmMedianMs <= STARTUP_TARGET_MS,
    });
  return out;
}

const int = (n: number): string => Math.round(n).toLocaleString("en-US");
const fixed = (n: number, digits = 2): string => n.toFixed(digits);
const verdict = (pass: boolean): string => (pass ? "PASS" : "MISS");

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  const line = (r: string[]): string =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join("\n");
}

function httpRows(c: Comparison, unit: string, ratioTarget: number | null, p99Target: number | null): string[][] {
  const invalid = c.valid ? "" : " (INVALID: errors/non-2xx)";
  const ratios = c.roundRatios.map((r) => fixed(r)).join(" / ");
  // Servers that are not saturated answer every request sent: req/s is the load's, CPU per request is theirs.
  const byCpu = leadingRatio(c).byCpu;
  const judged = (ratio: number): string[] => (ratioTarget === null ? ["", ""] : [`>= ${ratioTarget}x`, verdict(ratio >= ratioTarget)]);
  const cpuRows =
    c.strand.cpuUsPerRequest !== null && c.floor.cpuUsPerRequest !== null && c.cpuRatio !== null
      ? [
          [
            byCpu ? `${c.title}${invalid}` : "",
            "server CPU us/req",
            fixed(c.strand.cpuUsPerRequest, 0),
            fixed(c.floor.cpuUsPerRequest, 0),
            `${fixed(c.cpuRatio)}x (floor/strand)`,
            ...(byCpu ? judged(c.cpuRatio) : ["", ""]),
          ],
          ["", "server CPU busy", `${fixed(c.strand.cpuBusy! * 100, 0)}%`, `${fixed(c.floor.cpuBusy! * 100, 0)}%`, "", "", ""],
        ]
      : [];
  const rows = [
    ...(byCpu ? cpuRows : []),
    [
      byCpu ? "" : `${c.title}${invalid}`,
      `${unit}`,
      int(c.strand.requestsPerSec),
      int(c.floor.requestsPerSec),
      `${fixed(c.ratio)}x (${ratios})`,
      ...(byCpu ? ["", ""] : judged(c.ratio)),
    ],
    ["", "p50 ms (median)", String(c.strand.p50Ms), String(c.floor.p50Ms), "", "", ""],
    [
      "",
      "p99 ms (worst)",
      String(c.strand.p99Ms),
      String(c.floor.p99Ms),
      "",
      p99Target === null ? "" : `<= ${p99Target} ms`,
      p99Target === null ? "" : verdict(c.strand.p99Ms <= p99Target),
    ],
  ];
  if (!byCpu) rows.push(...cpuRows);
  return rows;
}

export function renderTable(report: BenchReport, options: BenchOptions): string {
  const rows: string[][] = [["benchmark", "metric", "strand", "floor", "strand/floor (rounds)", "target", "result"]];
  if (report.read) rows.push(...httpRows(report.read, "req/s", TARGETS.readRatio, TARGETS.readP99Ms));
  if (report.write) rows.push(...httpRows(report.write, "writes/s", TARGETS.writeRatio, null));
  const t = report.traversal;
  if (t) {
    // Its "floor" reads raw lmdb with no cache while Strand serves from its read cache: not a bound
    // on Strand's work, so the row names what it is compared with.
    const title = `2-hop traversal (${int(t.nodes)} nodes, ${int(t.edges)} edges) vs uncached raw lmdb`;
    rows.push(
      [
        title,
        "mean us",
        fixed(t.strand.meanUs, 1),
        fixed(t.floor.meanUs, 1),
        `${fixed(t.slowdown)}x uncached lmdb's time`,
        `<= ${TARGETS.twoHopMeanUs} us`,
        verdict(t.strand.meanUs <= TARGETS.twoHopMeanUs),
      ],
      ["", "p50 us", fixed(t.strand.p50Us, 1), fixed(t.floor.p50Us, 1), "", "", ""],
      ["", "p99 us", fixed(t.strand.p99Us, 1), fixed(t.floor.p99Us, 1), "", "", ""],
      [
        "",
        "expansions/s",
        int(t.strand.expansionsPerSec),
        int(t.floor.expansionsPerSec),
        `${fixed(t.strand.expansionsPerCall, 1)} nodes per call`,
        "",
        "",
      ],
    );
    // The floor column is SQLite here (counts.ts); only the COUNT rows have a target.
    for (const r of t.counts.rows) {
      const target = r.name.endsWith("COUNT") ? COUNT_TARGET_RATIO : null;
      rows.push([
        `${r.name} vs SQLite (${fixed(r.perCall, 1)} per call)`,
        "p50 us",
        fixed(r.strand.p50Us, 1),
        fixed(r.sqlite.p50Us, 1),
        `${fixed(r.ratio)}x SQLite's median`,
        target === null ? "" : `<= ${target}x`,
        target === null ? "" : verdict(r.ratio <= target),
      ]);
    }
  }
  const s = report.scan;
  for (const q of s?.queries ?? []) {
    const title = `${q.query} (${int(s!.nodes)} people, ${int(q.rows)} rows)`;
    rows.push(
      [
        title,
        "mean us/call",
        fixed(q.strand.meanUs, 0),
        fixed(q.floor.meanUs, 0),
        `${fixed(q.ratio)}x the floor's time`,
        `<= ${TARGETS.scanRatio}x`,
        verdict(q.ratio <= TARGETS.scanRatio),
      ],
      ["", "p50 us", fixed(q.strand.p50Us, 0), fixed(q.floor.p50Us, 0), "", "", ""],
      ["", "p99 us", fixed(q.strand.p99Us, 0), fixed(q.floor.p99Us, 0), "", "", ""],
    );
  }
  const iw = report.indexWhere;
  for (const q of iw?.queries ?? []) {
    rows.push(
      [
        `${q.query} (${int(iw!.nodes)} people, ${int(q.rows)} rows; floor: the same WHERE as a full scan)`,
        "mean us/call",
        fixed(q.indexed.meanUs, 0),
        fixed(q.scan.meanUs, 0),
        `${fixed(q.speedup, 1)}x faster than the scan`,
        "",
        "",
      ],
      ["", "p50 us", fixed(q.indexed.p50Us, 0), fixed(q.scan.p50Us, 0), "", "", ""],
    );
  }
  if (report.vector) rows.push(...vectorRows(report.vector));
  const http = report.read !== null || report.write !== null;
  const header =
    `Strand bench: ${cpus().length} CPUs, node ${process.version}` +
    (http
      ? `; HTTP: ${options.rounds} round(s) x ${options.durationSeconds} s per side, ${options.connections} connections, ${int(options.records)} records`
      : "") +
    (t ? `; 2-hop: ${int(t.samples)} samples, graph built in ${fixed(t.buildSeconds, 1)} s` : "") +
    (s ? `; scans: ${int(s.samples)} calls per query and side, data built in ${fixed(s.buildSeconds, 1)} s` : "") +
    (report.vector
      ? `; SearchV: ${report.vector.inProcess.data}, ${report.vector.inProcess.strandPath} path, ${report.vector.inProcess.queries} queries, ${int(report.vector.inProcess.searches)} timed searches per side and ef`
      : "");
  const bm25 = report.bm25 ? `\n${renderBm25(report.bm25)}\n` : "";
  const restart = report.restart ? `\n${renderRestart(report.restart)}\n` : "";
  return `${header}\n\n${table(rows)}\n${bm25}${restart}${report.startup ? `\n${renderStartup(report.startup)}\n` : ""}`;
}

/** SearchV per ef in process (strand vs raw hnswlib), then SearchV and AddV over HTTP (vs the vector floor). */
function vectorRows(v: VectorBenchResult): string[][] {
  const p = v.inProcess;
  const rows: string[][] = [];
  p.rows.forEach((r, i) => {
    const title = i === 0 ? `SearchV in process vs raw hnswlib (${int(p.count)} x ${p.dim})` : "";
    const metric = `QPS (recall@${p.k}) ef ${r.ef}${r.strandDefault ? " default" : ""}`;
    const target = r.strandDefault ? `>= ${VECTOR_TARGETS.searchRatio}x` : "";
    rows.push([
      title,
      metric,
      `${int(r.strand.qps)} (${fixed(r.strand.recall, 3)})`,
      `${int(r.raw.qps)} (${fixed(r.raw.recall, 3)})`,
      `${fixed(r.ratio)}x`,
      target,
      r.strandDefault ? verdict(r.ratio >= VECTOR_TARGETS.searchRatio) : "",
    ]);
  });
  const h = p.headline;
  rows.push([
    "",
    `p50 / p99 us ef ${h.ef}`,
    `${fixed(h.strand.p50Us, 0)} / ${fixed(h.strand.p99Us, 0)}`,
    `${fixed(h.raw.p50Us, 0)} / ${fixed(h.raw.p99Us, 0)}`,
    `same neighbours: ${fixed(h.agreement, 3)}`,
    "",
    "",
  ]);
  if (v.http) {
    rows.push(...httpRows(v.http.search, "req/s", null, null));
    rows.push([
      "",
      `recall@${p.k}`,
      fixed(v.http.recall.strand, 3),
      fixed(v.http.recall.floor, 3),
      `${v.http.recall.queries} queries`,
      "",
      "",
    ]);
    const add = v.http.add;
    rows.push(...httpRows(add, "inserts/s", null, null));
    rows.push([
      "",
      "acknowledged inserts/s",
      int(add.strand.requestsPerSec),
      "",
      "",
      `>= ${int(VECTOR_TARGETS.addPerSec)}/s`,
      verdict(add.strand.requestsPerSec >= VECTOR_TARGETS.addPerSec),
    ]);
  }
  return rows;
}

export function renderJson(report: BenchReport, options: BenchOptions): string {
  const json = {
    version: 1,
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    options,
    read: report.read,
    write: report.write,
    traversal: report.traversal,
    scan: report.scan,
    indexWhere: report.indexWhere,
    vector: report.vector,
    bm25: report.bm25,
    restart: report.restart,
    startup: report.startup,
    verdicts: verdicts(report),
  };
  return `BENCH_JSON ${JSON.stringify(json)}`;
}
