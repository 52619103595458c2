// `GET /metrics` in the Prometheus text format (prom-client): what the server is built from,
// requests per route, status and error code and their latency per route and status, what the
// store holds (file size, records per type, HNSW and BM25 sizes; read at most every STATS_TTL_MS,
// since counting walks keys), /mcp connections, embedding calls (embedding-metrics.ts),
// replication (replication-metrics.ts), and the process's own memory and CPU. Each server has its
// own registry, so servers in one process do not mix.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { EmbedCall } from "../../runtime/embed/observed.js";
import type { StoreStats } from "../../runtime/records/store-stats.js";
import { HTTP_STATUS } from "../http/status.js";
import type { ReplicationNode } from "../replication/node.js";
import { type BuildInfo, buildInfo } from "./build-info.js";
import { EmbeddingMetrics } from "./embedding-metrics.js";
import { addReplicationMetrics } from "./replication-metrics.js";

const STATS_TTL_MS = 10_000;
const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The `code` label of an answer that carries no error code. */
const NO_CODE = "none";
/** The `code` label of an error code this server does not define (so a body cannot add series). */
const OTHER_CODE = "other";
const KNOWN_CODES: ReadonlySet<string> = new Set(Object.keys(HTTP_STATUS));

/** The `code` label of an answer: its error code, NO_CODE without one, OTHER_CODE for one not of core/errors.ts. */
export function codeLabel(code: string | null): string {
  if (code === null) return NO_CODE;
  return KNOWN_CODES.has(code) ? code : OTHER_CODE;
}

export interface MetricsSources {
  /** The store's figures (GraphStore.stats); absent for stores that do not report them. */
  storeStats?: (() => StoreStats) | undefined;
  /** The node's commit log and role: its sequence, and a replica's lag (replication-metrics.ts). */
  replication?: ReplicationNode | undefined;
  /** strand_build_info's labels (default: this package's, build-info.ts). */
  build?: BuildInfo | undefined;
  now?: () => number;
}

/** Tenants named in strand_tenant_requests; the others are summed as "other". */
export const TOP_TENANTS = 20;

export class ServerMetrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly embeddings: EmbeddingMetrics;
  private readonly requests: Counter<"route" | "status" | "code">;
  private readonly latency: Histogram<"route" | "status">;
  private mcpConnections: () => number = () => 0;
  private mcpItems: () => number = () => 0;
  private cached: { at: number; stats: StoreStats } | null = null;

  constructor(private readonly sources: MetricsSources = {}) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const build = sources.build ?? buildInfo();
    new Gauge({
      name: "strand_build_info",
      help: "Always 1; its labels say what this server runs: Strand's version, Node's, and the commit when known",
      labelNames: build.commit === undefined ? ["version", "node"] : ["version", "node", "commit"],
      registers,
    }).set({ ...build }, 1);
    this.requests = new Counter({
      name: "strand_http_requests_total",
      help: "HTTP requests answered, by route (query name, built-in path or MCP tool), status and error code (none: the answer has none)",
      labelNames: ["route", "status", "code"],
      registers,
    });
    this.latency = new Histogram({
      name: "strand_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its response, by route and status",
      labelNames: ["route", "status"],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    });
    const self = this;
    new Gauge({
      name: "strand_mcp_connections",
      help: "Live /mcp connections",
      registers,
      collect() {
        this.set(self.mcpConnections());
      },
    });
    new Gauge({
      name: "strand_mcp_held_items",
      help: "Items the live /mcp connections hold",
      registers,
      collect() {
        this.set(self.mcpItems());
      },
    });
    this.embeddings = new EmbeddingMetrics(registers);
    if (sources.replication !== undefined) addReplicationMetrics(registers, sources.replication);
    if (sources.storeStats === undefined) return;
    const fromStats = (name: string, help: string, labelNames: string[], fill: (g: Gauge, s: StoreStats) => void): void => {
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          fill(this, self.stats());
        },
      });
    };
    fromStats("strand_store_file_bytes", "Size of the LMDB data file on disk", [], (g, s) => g.set(s.fileBytes));
    fromStats("strand_store_used_bytes", "Bytes of the LMDB data file in use", [], (g, s) => g.set(s.usedBytes));
    fromStats("strand_records", "Records per type", ["kind", "type"], (g, s) => {
      for (const r of s.records) g.set({ kind: r.kind, type: r.type }, r.count);
    });
    fromStats("strand_vector_index_size", "Live vectors in each vector type's HNSW index", ["type"], (g, s) => {
      for (const v of s.vectors) g.set({ type: v.type }, v.count);
    });
    fromStats("strand_bm25_documents", "Documents in each type's BM25 index", ["type"], (g, s) => {
      for (const b of s.bm25) g.set({ type: b.type }, b.docs);
    });
    fromStats("strand_bm25_tokens", "Tokens (summed document lengths) in each type's BM25 index", ["type"], (g, s) => {
      for (const b of s.bm25) g.set({ type: b.type }, b.tokens);
    });
  }

  /** One answered request; `code` is its error code (null: none). */
  observe(route: string, status: number, code: string | null, seconds: number): void {
    const labels = { route, status: String(status) };
    this.requests.inc({ ...labels, code: codeLabel(code) });
    this.latency.observe(labels, seconds);
  }

  /** One embed call: the observer the app hands runtime/embed/observed.ts. */
  readonly observeEmbedding = (call: EmbedCall): void => this.embeddings.observe(call);

  /**
   * Requests per tenant, as `strand_tenant_requests{tenant}`: the TOP_TENANTS busiest by name and
   * the rest summed as "(other)" (no tenant can be named so), so many tenants cannot grow the metrics without bound.
   */
  trackTenants(
    requests: () => ReadonlyMap<string, number>,
    open: () => number,
    memoryReleases: () => number,
    lastRelease: () => { heapMs: number; allocatorMs: number | null } | null,
  ): void {
    const registers = [this.registry];
    new Gauge({
      name: "strand_tenant_requests",
      help: `Requests answered per tenant since start: the ${TOP_TENANTS} busiest, the rest as "(other)" (the project's own graph is "default")`,
      labelNames: ["tenant"],
      registers,
      collect() {
        this.reset();
        const sorted = [...requests()].sort((a, b) => b[1] - a[1]);
        for (const [tenant, n] of sorted.slice(0, TOP_TENANTS)) this.set({ tenant }, n);
        if (sorted.length > TOP_TENANTS)
          this.set(
            { tenant: "(other)" },
            sorted.slice(TOP_TENANTS).reduce((sum, [, n]) => sum + n, 0),
          );
      },
    });
    new Gauge({
      name: "strand_tenants_open",
      help: "Tenants open now (each holds its store open; idle ones are closed)",
      registers,
      collect() {
        this.set(open());
      },
    });
    new Counter({
      name: "strand_tenant_memory_releases_total",
      help: "Times the memory closed tenants freed was given back to the system (once they closed and the server was quiet)",
      registers,
      collect() {
        this.reset();
        this.inc(memoryReleases());
      },
    });
    new Gauge({
      name: "strand_tenant_memory_release_last_seconds",
      help: "How long the last release held the engine (its heap's collection and the allocator's trim); 0 before the first",
      registers,
      collect() {
        const last = lastRelease();
        this.set(last === null ? 0 : (last.heapMs + (last.allocatorMs ?? 0)) / 1000);
      },
    });
  }

  /** How often the standby front door took connections because the engine was held (front-door/standby.ts). */
  trackStandby(holds: () => number): void {
    new Counter({
      name: "strand_standby_holds_total",
      help: "Times the engine's thread was held long enough (25 ms without a heartbeat) that the standby front door took new connections and answered /health",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(holds());
      },
    });
  }

  /** Where the /mcp figures come from (the app's connection registry). */
  trackMcp(connections: () => number, heldItems: () => number): void {
    this.mcpConnections = connections;
    this.mcpItems = heldItems;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  private stats(): StoreStats {
    const now = (this.sources.now ?? Date.now)();
    if (this.cached === null || now - this.cached.at >= STATS_TTL_MS) {
      this.cached = { at: now, stats: this.sources.storeStats!() };
    }
    return this.cached.stats;
  }
}
