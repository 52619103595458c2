// The Idempotency-Key request header (IETF httpapi's draft): a write sent with one runs at most
// once per key (runtime/query/query-runner.ts runOnce); a retry gets the stored answer with
// `Idempotent-Replayed: true`. The draft writes the key as a structured-field string, quoted
// ("8e03978e-..."); a bare token is taken too. A read query ignores the header: it changes nothing.
import { hash } from "node:crypto";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import type { Idempotency } from "../../runtime/query/query-runner.js";

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
/** How long an answer is kept unless set otherwise: a day, as the draft suggests for retries. */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Visible ASCII, no quote or backslash (an sf-string's content, unescaped). */
const KEY = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The key a request sent (undefined: none); INVALID_IDEMPOTENCY_KEY for one that is not 1..255 visible characters. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  const key = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !KEY.test(key)) {
    throw new StrandError(
      "INVALID_IDEMPOTENCY_KEY",
      `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters without " or \\ (a UUID is usual), got ${JSON.stringify(echo(header))}`,
    );
  }
  return key;
}

/** A keyed run of `query` (QueryRunner.runOnce) as of now, whether it came by HTTP or by /mcp. */
export function keyedRun(key: string, query: string, params: Readonly<Record<string, unknown>>, windowMs: number): Idempotency {
  return { key, hash: requestHash(query, params), windowMs, now: Date.now() };
}

/** A request's identity under its key: the query and its parameters, as validated. */
function requestHash(query: string, params: Readonly<Record<string, unknown>>): string {
  // One-shot: no Hash object per request.
  return hash("sha256", JSON.stringify([query, params]), "hex");
}
