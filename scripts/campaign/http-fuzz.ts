// The HTTP fuzz campaign (issue 14): `requests` fuzzed requests (http-fuzz-requests.ts) against
// one `strand serve`, `concurrency` at a time over kept-alive connections (raw ones on their own
// socket). Findings: any answer ≥ 500, a request unanswered within `timeoutMs` (a hang) or a
// connection closed without an answer, and a 4xx whose body is not `{"error","code"}` (HEAD
// answers have no body). The server's RSS is sampled throughout and must stay under `maxRssMiB`.
import { readFileSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import http from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nextRequest, type FuzzPool, type FuzzRequest } from "./http-fuzz-requests.js";
import { seededRandom } from "./random.js";
import { serve } from "./strand-child.js";

export interface HttpFuzzOptions {
  requests: number;
  seed: number;
  concurrency?: number;
  timeoutMs?: number;
  maxRssMiB?: number;
  log?: (line: string) => void;
  /** True once the campaign should stop early (SIGINT/SIGTERM): the summary counts what was sent. */
  stopped?: () => boolean;
}

export interface HttpFuzzSummary {
  requests: number;
  /** Requests sent and answered (or judged); less than `requests` only when stopped early. */
  sent: number;
  seed: number;
  /** Answers by status class and by status. */
  statuses: Record<string, number>;
  serverErrors: number;
  hangs: number;
  noAnswer: number;
  badErrorBodies: number;
  rssMiB: { start: number; max: number; end: number };
  requestsPerSecond: number;
  slowestMs: number;
  findings: string[];
}

interface Answer {
  status: number;
  body: string;
  ms: number;
  headers: Record<string, string | string[] | undefined>;
}

function sendHttp(agent: http.Agent, port: number, r: Extract<FuzzRequest, { kind: "http" }>, timeoutMs: number): Promise<Answer | string> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let settled = false;
    const done = (value: Answer | string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    let req: http.ClientRequest;
    try {
      // Node's client sends a DELETE/OPTIONS/TRACE body with neither a length nor chunking: declare it.
      const headers = r.body === undefined ? r.headers : { ...r.headers, "content-length": String(Buffer.byteLength(r.body)) };
      req = http.request({ host: "127.0.0.1", port, method: r.method, path: r.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          done({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - t0,
            headers: res.headers,
          }),
        );
        res.on("error", (e) => done(`response error: ${e.message}`));
      });
    } catch (error) {
      // The client library refused to send it (not the server's doing): not a finding.
      resolve({ status: -1, body: (error as Error).message, ms: 0, headers: {} });
      return;
    }
    const timer = setTimeout(() => {
      done("hang");
      req.destroy();
    }, timeoutMs);
    req.on("error", (e) => done(`no answer: ${e.message}`));
    req.end(r.body);
  });
}

function sendRaw(port: number, bytes: Buffer, timeoutMs: number): Promise<Answer | string> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve("hang");
    }, timeoutMs);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => {}); // a reset after the answer is fine; no answer is judged at close
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (status === null) return resolve(`no answer (raw): ${JSON.stringify(text.slice(0, 100))}`);
      const head = text.indexOf("\r\n\r\n");
      resolve({ status: Number(status[1]), body: head < 0 ? "" : text.slice(head + 4), ms: performance.now() - t0, headers: {} });
    });
    socket.end(bytes);
  });
}

function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return kb === null ? 0 : Math.round(Number(kb[1]) / 1024);
  } catch {
    return 0;
  }
}

/**
 * `{"error","code"}`; at the MCP protocol endpoint also a JSON-RPC error response (`{jsonrpc,
 * error: {code, message}, id}`), the form MCP clients read there (the MCP SDK's transport answers
 * a malformed message, a wrong Accept or Content-Type that way).
 */
export function isErrorBody(text: string, jsonRpc: boolean): boolean {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.error === "string" && typeof body.code === "string") return true;
    const rpc = body.error as Record<string, unknown> | undefined;
    return jsonRpc && body.jsonrpc === "2.0" && typeof rpc?.code === "number" && typeof rpc.message === "string";
  } catch {
    return false;
  }
}

/** Learns record ids and connection ids from answers, so later requests can name them. */
function learn(pool: FuzzPool, label: string, body: string): void {
  if (label === "/mcp/init" && /^"[0-9a-f-]{36}"$/.test(body)) {
    pool.connections.push(body.slice(1, -1));
    if (pool.connections.length > 50) pool.connections.shift();
    return;
  }
  for (const m of body.slice(0, 2000).matchAll(/"id":"([0-9a-f-]{36})"/g)) {
    pool.ids.push(m[1]!);
    if (pool.ids.length > 200) pool.ids.shift();
  }
}

/** The fuzzed server's old-space limit (MiB): well above what it keeps, well below V8's default. */
const FUZZ_HEAP_MIB = 256;

export async function runHttpFuzz(options: HttpFuzzOptions): Promise<HttpFuzzSummary> {
  const random = seededRandom(options.seed);
  const concurrency = options.concurrency ?? 16;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRss = options.maxRssMiB ?? 768;
  const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  const dataDir = mkdtempSync(join(base, "strand-campaign-fuzz-"));
  // The JS heap is capped: V8 otherwise lets it grow toward its multi-GiB default limit under the
  // fuzz's garbage (100-260 KB bodies; an RSS of ~510 MiB that fell to ~230 MiB once idle), so the
  // RSS bound would measure V8's growth policy. Capped, memory the server keeps shows as a crash
  // (an answer missing) or as RSS past the bound.
  const server = await serve({ dataDir, nodeArgs: [`--max-old-space-size=${FUZZ_HEAP_MIB}`], extraArgs: ["--log-level", "silent"] });
  const pid = server.child.pid!;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const pool: FuzzPool = { ids: [], connections: [] };
  const s: HttpFuzzSummary = {
    requests: options.requests,
    sent: 0,
    seed: options.seed,
    statuses: {},
    serverErrors: 0,
    hangs: 0,
    noAnswer: 0,
    badErrorBodies: 0,
    rssMiB: { start: rssMiB(pid), max: 0, end: 0 },
    requestsPerSecond: 0,
    slowestMs: 0,
    findings: [],
  };
  const finding = (m: string): void => {
    if (s.findings.length < 50) s.findings.push(m);
  };
  const sampler = setInterval(() => {
    s.rssMiB.max = Math.max(s.rssMiB.max, rssMiB(pid));
  }, 500);
  let next = 0;
  const t0 = performance.now();
  const describe = (r: FuzzRequest): string =>
    r.kind === "raw"
      ? `${r.label} ${JSON.stringify(r.bytes.toString("latin1").slice(0, 200))}`
      : `${r.method} ${r.path.slice(0, 100)} ${JSON.stringify(r.headers)} ${String(r.body ?? "").slice(0, 300)}`;
  const worker = async (): Promise<void> => {
    while (next < options.requests && server.alive() && options.stopped?.() !== true) {
      const i = next++;
      const r = nextRequest(random, pool);
      const answer = r.kind === "raw" ? await sendRaw(server.port, r.bytes, timeoutMs) : await sendHttp(agent, server.port, r, timeoutMs);
      if (typeof answer === "string") {
        if (answer === "hang") s.hangs++;
        else s.noAnswer++;
        finding(`#${i} ${answer}: ${describe(r)}`);
        continue;
      }
      if (answer.status === -1) continue;
      s.slowestMs = Math.max(s.slowestMs, answer.ms);
      s.statuses[answer.status] = (s.statuses[answer.status] ?? 0) + 1;
      if (answer.status >= 500) {
        s.serverErrors++;
        finding(`#${i} ${answer.status} ${answer.body.slice(0, 300)}: ${describe(r)}`);
      } else if (answer.status >= 400 && !(r.kind === "http" && r.method === "HEAD")) {
        const ok = isErrorBody(answer.body, r.kind === "http" && r.path === "/mcp");
        if (!ok) {
          s.badErrorBodies++;
          finding(`#${i} ${answer.status} without {error, code}: ${answer.body.slice(0, 200)}: ${describe(r)}`);
        }
      } else if (answer.status === 200) learn(pool, r.label, answer.body);
      if ((i + 1) % 10_000 === 0)
        options.log?.(
          `${i + 1} requests, ${((i + 1) / ((performance.now() - t0) / 1000)).toFixed(0)}/s, RSS ${rssMiB(pid)} MiB, ` +
            `${s.serverErrors} 5xx, ${s.hangs} hangs, ${s.noAnswer} unanswered, ${s.badErrorBodies} bad 4xx bodies`,
        );
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (!server.alive()) finding(`the server died:\n${server.output().slice(-3000)}`);
    s.sent = next;
    s.requestsPerSecond = Math.round(next / ((performance.now() - t0) / 1000));
    s.rssMiB.end = rssMiB(pid);
    s.rssMiB.max = Math.max(s.rssMiB.max, s.rssMiB.end);
    if (s.rssMiB.max > maxRss) finding(`server RSS reached ${s.rssMiB.max} MiB (bound ${maxRss} MiB)`);
    s.slowestMs = Math.round(s.slowestMs);
  } finally {
    clearInterval(sampler);
    agent.destroy();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (s.serverErrors + s.hangs + s.noAnswer + s.badErrorBodies > s.findings.length && s.findings.length === 50) s.findings.push("… more");
  return s;
}
