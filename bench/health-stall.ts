// `node dist/bench/health-stall.js [--rounds N]` (issue 14, item 6): the latency of GET /health
// while one big request body is being handled by a `strand serve` child. For each case it sends
// the body on one connection while another polls /health back to back, and reports /health p50,
// p99 and max during the big request, next to a baseline with no big request (all in one run).
// Cases: the largest body the server parses (just under MAX_BODY_VALUES values) and a body within
// the byte limit but with millions of values (refused while it arrives). The big body is sent
// from a separate process, so building and sending it does not delay this process's polling.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MAX_BODY_VALUES } from "../server/http/json-shape.js";
import { captureOutput, CLI, REPO_ROOT } from "./servers.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const rounds = Number(values.rounds);

const cases: { name: string; body: () => string }[] = [
  { name: "no big request", body: () => "" },
  {
    name: `${MAX_BODY_VALUES - 10} empty objects (parsed)`,
    body: () =>
      `{"handle":[${Array(MAX_BODY_VALUES - 10)
        .fill("{}")
        .join(",")}]}`,
  },
  { name: "8 MiB of empty objects (refused)", body: () => `{"handle":[${"{},".repeat((8 * 1024 * 1024 - 20) / 3)}{}]}` },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** POSTs the file's content from a child process; resolves with the status (0 when the request failed). */
function sendFromChild(url: string, file: string): Promise<number> {
  const script = `const body = require("node:fs").readFileSync(${JSON.stringify(file)});
fetch(${JSON.stringify(url)}, { method: "POST", headers: { "content-type": "application/json" }, body })
  .then((r) => process.stdout.write(String(r.status)), () => process.stdout.write("0"));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  return new Promise((resolve) => child.once("exit", () => resolve(Number(out) || 0)));
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "strand-health-stall-"));
  const child = spawn(process.execPath, [CLI, "serve", join(REPO_ROOT, "examples/social"), "--port", "0", "--data", dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = captureOutput(child);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /strand listening on (http:\/\/[^\s]+) /.exec(output());
        if (match !== null) {
          clearInterval(timer);
          resolve(match[1]!);
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(output()));
        }
      }, 50);
    });
    console.log(`/health latency (ms) while one request body is handled; ${rounds} rounds each`);
    for (const { name, body } of cases) {
      const text = body();
      const bodyFile = join(dataDir, "body.json");
      writeFileSync(bodyFile, text);
      const samples: number[] = [];
      const statuses = new Set<number>();
      for (let round = 0; round < rounds; round++) {
        let done = false;
        const big =
          text === ""
            ? new Promise<void>((r) => setTimeout(r, 300)).then(() => {
                done = true;
              })
            : sendFromChild(`${url}/AddUser`, bodyFile).then((status) => {
                statuses.add(status);
                done = true;
              });
        do {
          const start = performance.now();
          await (await fetch(`${url}/health`)).arrayBuffer();
          samples.push(performance.now() - start);
        } while (!done);
        await big;
      }
      samples.sort((a, b) => a - b);
      const status = statuses.size === 0 ? "" : ` (big request answered ${[...statuses].join(", ")})`;
      console.log(
        `${name}: n=${samples.length} p50=${percentile(samples, 50).toFixed(1)} p99=${percentile(samples, 99).toFixed(1)} max=${(samples.at(-1) ?? 0).toFixed(1)}${status}`,
      );
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
