// `npm run campaign -- <name> [--runs N] [--seed S]`: the fault and fuzz campaigns of issue 14 at
// full size (the test suite runs a small seeded slice of each). Prints progress to stderr and a
// summary to stdout; exits 1 when a campaign found anything.
//   kill9        100 kill -9 runs of `strand serve` under a mixed write stream (kill9.ts)
//   disk-full    runs under a file size limit: 507s, reads, recovery, clean restart (disk-full.ts)
//   http-fuzz    1,000,000 fuzzed HTTP and MCP requests against one server (http-fuzz.ts)
//   hx-mutants   100,000 mutated .hx projects through the compiler (hx-mutants.ts)
//   failover     an etcd cluster, a leader and 2 replicas, writers recording every answer: 10 min
//                of steady writes, then 54 faults with --sync-replicas 1 (9 of each kind), then
//                25 with --sync-replicas 0 (20 leader pauses, 5 leader kills) (failover.ts); 2
//                more lanes write to 3 tenants, checked as the project's graph is (failover-tenants.ts);
//                --steady-seconds S changes the steady phase, --lease-ttl S the lease (default 3),
//                --tenants N how many tenants (0: the project's graph only)
import { parseArgs } from "node:util";
import { runDiskFull } from "./disk-full.js";
import { runFailover } from "./failover.js";
import { runHttpFuzz } from "./http-fuzz.js";
import { runHxMutants } from "./hx-mutants.js";
import { runKill9 } from "./kill9.js";

const USAGE =
  "usage: npm run campaign -- kill9|disk-full|http-fuzz|hx-mutants|failover [--runs N] [--seed S] [--steady-seconds S] [--lease-ttl S] [--tenants N]";
const HELP = `${USAGE}
  kill9        100 kill -9 runs of strand serve under a mixed write stream
  disk-full    10 runs under a file size limit: 507s, reads, recovery, clean restart
  http-fuzz    1,000,000 fuzzed HTTP and MCP requests against one server
  hx-mutants   100,000 mutated .hx projects through the compiler
  failover     an etcd cluster, a leader and 2 replicas, writers recording every answer: steady
               writes, then --runs faults (default 54) with --sync-replicas 1, then 25 with
               --sync-replicas 0; 4 lanes write to the project's graph, 2 to the tenants c0, c1, …
  --runs N            runs, requests, mutants or faults (the default above)
  --seed S            the seed (printed first; the same seed replays the same choices)
  --steady-seconds S  failover: writes with no fault before the first (default 600)
  --lease-ttl S       failover: the leader's lease in seconds (default 3)
  --tenants N         failover: tenants written to besides the project's graph (default 3; 0: none)
`;
const DEFAULT_RUNS: Record<string, number> = {
  kill9: 100,
  "disk-full": 10,
  "http-fuzz": 1_000_000,
  "hx-mutants": 100_000,
  failover: 54,
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string" },
    seed: { type: "string" },
    "steady-seconds": { type: "string" },
    "lease-ttl": { type: "string" },
    tenants: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help === true) {
  process.stdout.write(HELP);
  process.exit(0);
}
const name = positionals[0] ?? "";
if (!(name in DEFAULT_RUNS) || positionals.length !== 1) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const runs = values.runs === undefined ? DEFAULT_RUNS[name]! : Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  process.stderr.write(`--runs and --seed take integers (runs ≥ 1)\n${USAGE}\n`);
  process.exit(2);
}
const started = performance.now();
const log = (line: string): void => {
  process.stderr.write(`[${name} ${((performance.now() - started) / 1000).toFixed(0).padStart(5)}s] ${line}\n`);
};
log(`seed ${seed} (replay: npm run campaign -- ${name} --runs ${runs} --seed ${seed})`);
// The first SIGINT/SIGTERM stops the campaign at the next request, mutant or run, and the summary
// still prints (with what was done); a second one exits at once.
let stopRequested = false;
const stopped = (): boolean => stopRequested;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    if (stopRequested) process.exit(130);
    stopRequested = true;
    log(`${signal}: stopping early; the summary counts what was done`);
  });

const summary: { findings: string[]; losses?: string[] } =
  name === "failover"
    ? await failover()
    : name === "kill9"
      ? await runKill9({ runs, seed, log, stopped })
      : name === "disk-full"
        ? await runDiskFull({ runs, seed, log, stopped })
        : name === "http-fuzz"
          ? await runHttpFuzz({ requests: runs, seed, log, stopped })
          : await runHxMutants({ mutants: runs, seed, log, stopped });

/** Both synchronous modes, one after the other, each on its own etcd cluster and data. */
async function failover(): Promise<{ findings: string[]; losses: string[]; sync1: unknown; sync0: unknown }> {
  const steadySeconds = Number(values["steady-seconds"] ?? "600");
  const leaseTtlS = Number(values["lease-ttl"] ?? "3");
  const tenants = Number(values.tenants ?? "3");
  if (!(steadySeconds >= 0) || !Number.isInteger(leaseTtlS) || leaseTtlS < 1 || !Number.isInteger(tenants) || tenants < 0) {
    process.stderr.write(`--steady-seconds takes a number ≥ 0, --lease-ttl an integer ≥ 1, --tenants an integer ≥ 0\n${USAGE}\n`);
    process.exit(2);
  }
  const sync1 = await runFailover({
    faults: runs,
    seed,
    syncReplicas: 1,
    leaseTtlS,
    steadyMs: steadySeconds * 1000,
    tenants,
    log,
    stopped,
  });
  const sync0 = stopped()
    ? null
    : await runFailover({
        faults: 25,
        seed: seed + 1,
        syncReplicas: 0,
        kinds: ["leader-pause", "leader-pause", "leader-pause", "leader-pause", "leader-kill"],
        leaseTtlS,
        steadyMs: 30_000,
        tenants,
        log,
        stopped,
      });
  return {
    findings: [...sync1.findings, ...(sync0?.findings ?? [])],
    losses: sync1.losses,
    sync1: { ...sync1, findings: undefined, losses: undefined },
    sync0: sync0 === null ? null : { ...sync0, findings: undefined, losses: undefined },
  };
}

const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ campaign: name, seconds: Math.round(seconds), ...summary }, null, 2)}\n`);
process.exit(summary.findings.length + (summary.losses?.length ?? 0) === 0 ? 0 : 1);
