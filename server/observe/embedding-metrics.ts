// The embedding providers' figures in /metrics: calls (each one batch of texts handed to a
// provider, runtime/embed/observed.ts), the texts in them, failures and duration, per provider and
// model. Texts served from the embedding cache never reach a provider and are not counted. The
// models are the project's (strand.toml and `#[model("..")]`), so the series are few.
import { Counter, Histogram, type Registry } from "prom-client";
import type { EmbedCall } from "../../runtime/embed/observed.js";

/** Hashing is microseconds; a remote provider tens of milliseconds to its timeout (30 s by default). */
const EMBED_BUCKETS_SECONDS = [0.0001, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type Labels = "provider" | "model";

export class EmbeddingMetrics {
  private readonly calls: Counter<Labels>;
  private readonly errors: Counter<Labels>;
  private readonly texts: Counter<Labels>;
  private readonly duration: Histogram<Labels>;

  constructor(registers: Registry[]) {
    const labelNames: Labels[] = ["provider", "model"];
    this.calls = new Counter({
      name: "strand_embedding_calls_total",
      help: "Embed calls to a provider (one batch of texts each), by provider and model",
      labelNames,
      registers,
    });
    this.errors = new Counter({
      name: "strand_embedding_errors_total",
      help: "Embed calls that failed (EMBEDDING_FAILED: unreachable, timed out, refused, malformed answer), by provider and model",
      labelNames,
      registers,
    });
    this.texts = new Counter({
      name: "strand_embedding_texts_total",
      help: "Texts sent to a provider to embed, by provider and model",
      labelNames,
      registers,
    });
    this.duration = new Histogram({
      name: "strand_embedding_duration_seconds",
      help: "Time an embed call took, failed or not, by provider and model",
      labelNames,
      buckets: EMBED_BUCKETS_SECONDS,
      registers,
    });
  }

  observe(call: EmbedCall): void {
    const labels = { provider: call.provider, model: call.model };
    this.calls.inc(labels);
    this.texts.inc(labels, call.texts);
    if (call.error !== null) this.errors.inc(labels);
    this.duration.observe(labels, call.seconds);
  }
}
