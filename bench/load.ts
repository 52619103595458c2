// HTTP load from a separate process. `runLoad` forks this same module as a child (so the load
// generator never shares an event loop with a server running in the caller's process), sends it
// the request bodies, and returns the child's autocannon summary.
//
// `bodies` is a function, which cannot cross a process boundary: it is called `bodyPool` times up
// front (default 20,000) and the child sends those bodies; once a run has sent more requests than
// that, bodies repeat. A route that must see distinct bodies (e.g. a UNIQUE field) needs a pool at
// least as large as the requests the run will make, or `non2xx` will count the conflicts.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon, { type AutocannonRequest } from "autocannon";

export interface LoadOptions {
  /** Full URL of the route, e.g. http://127.0.0.1:6969/floor/read */
  url: string;
  connections: number;
  durationSeconds: number;
  /** A fresh JSON request body per call. */
  bodies: () => string;
  /** Default POST. */
  method?: string;
  /** Extra headers; content-type defaults to application/json. */
  headers?: Record<string, string>;
  /** How many bodies to pre-generate; default 20,000 (they repeat after that). */
  bodyPool?: number;
}

export interface LoadResult {
  /** Responses (any status) per second over the run. */
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Responses with a status outside 2xx. */
  non2xx: number;
  /** Total responses received. */
  requests: number;
  durationSeconds: number;
}

interface WorkerRequest {
  url: string;
  connections: number;
  durationSeconds: number;
  method: string;
  headers: Record<string, string>;
  bodies: string[];
}

type WorkerReply = { ok: true; result: LoadResult } | { ok: false; error: string };

const WORKER_FLAG = "--strand-load-worker";
const DEFAULT_BODY_POOL = 20_000;

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const pool = Math.max(1, options.bodyPool ?? DEFAULT_BODY_POOL);
  const request: WorkerRequest = {
    url: options.url,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    method: options.method ?? "POST",
    headers: { "content-type": "application/json", ...options.headers },
    bodies: Array.from({ length: pool }, () => options.bodies()),
  };
  return new Promise<LoadResult>((resolve, reject) => {
    // Forks this file as compiled (dist/bench/load.js); plain node runs it, no loader needed.
    const child = fork(fileURLToPath(import.meta.url), [WORKER_FLAG], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let settled = false;
    const finish = (error: Error | null, result?: LoadResult): void => {
      if (settled) return;
      settled = true;
      if (child.connected) child.disconnect();
      if (error !== null) reject(error);
      else resolve(result!);
    };
    child.once("message", (reply: WorkerReply) => {
      if (reply.ok) finish(null, reply.result);
      else finish(new Error(`load worker: ${reply.error}`));
    });
    child.once("error", (error) => finish(error));
    child.once("exit", (code, signal) => finish(new Error(`load worker exited (${code ?? signal}) without a result`)));
    child.send(request);
  });
}

/**
 * Runs in the child: one autocannon run. Each connection gets its own slice of the pool as
 * pre-built requests (autocannon encodes them once), so no two connections send the same body
 * and the client spends no CPU per request building one; a connection cycles through its slice.
 */
async function generateLoad(request: WorkerRequest): Promise<LoadResult> {
  const { bodies, connections, method } = request;
  let client = 0;
  const result = await autocannon({
    url: request.url,
    connections,
    duration: request.durationSeconds,
    headers: request.headers,
    requests: [{ method, body: bodies[0]! }],
    setupClient: (c) => {
      const k = client++ % connections;
      const slice: AutocannonRequest[] = [];
      for (let i = k; i < bodies.length; i += connections) slice.push({ method, body: bodies[i]! });
      if (slice.length === 0) slice.push({ method, body: bodies[k % bodies.length]! });
      c.setRequests(slice);
    },
  });
  const responses = result.requests.total;
  return {
    requestsPerSec: result.duration > 0 ? responses / result.duration : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    requests: responses,
    durationSeconds: result.duration,
  };
}

if (process.argv.includes(WORKER_FLAG)) {
  // The orchestrator went away (finished, crashed or interrupted): stop loading a server nobody measures.
  process.once("disconnect", () => process.exit(0));
  process.once("message", (request: WorkerRequest) => {
    generateLoad(request).then(
      (result) => process.send?.({ ok: true, result } satisfies WorkerReply, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply, () =>
          process.exit(1),
        ),
    );
  });
}
