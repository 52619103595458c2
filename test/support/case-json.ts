// Expected JSON of the conformance cases: matching with placeholders, and the "completed"
// expectation (what the update mode writes and what a failing case diffs against).
//
// In expected JSON, a string "$x" captures the value found there the first time and must match it
// at every later use; "$date" matches any ISO 8601 timestamp, "$any" anything, and "$~1.2345"
// a number equal to 1.2345 within 1e-12 relative (scores computed by a formula). Inside any other
// expected string, "{$x}" stands for the string captured as "$x" (an id in an error message).

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_INSIDE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const DAY_MS = 86_400_000;

/** Captured placeholder values, and the names the update mode may not invent (used in the file). */
export interface Bindings {
  values: Map<string, unknown>;
  reserved: ReadonlySet<string>;
}

export function newBindings(reserved: ReadonlySet<string> = new Set()): Bindings {
  return { values: new Map(), reserved };
}

export interface Reconciled {
  /** `expected` where it matches `actual` (placeholders kept), else `actual` written as an expectation. */
  value: unknown;
  /** The JSON path and reason of the first difference, or null on a match. */
  mismatch: string | null;
}

const same = (value: unknown): Reconciled => ({ value, mismatch: null });

/**
 * Compares `actual` with `expected` (which may hold placeholders), capturing into `bindings`, and
 * walks on past a difference, so the result holds every placeholder that still matches.
 */
export function reconcile(expected: unknown, actual: unknown, bindings: Bindings, path = "$"): Reconciled {
  const differ = (reason: string): Reconciled => ({ value: asExpectation(actual, bindings), mismatch: `${path}: ${reason}` });
  if (typeof expected === "string" && expected.startsWith("$") && expected.length > 1) {
    if (expected === "$any") return same(expected);
    if (expected.startsWith("$~")) {
      // A float computed by a formula: equal to 1e-12 relative (the last bits depend on operation order).
      const want = Number(expected.slice(2));
      const ok = typeof actual === "number" && Math.abs(actual - want) <= 1e-12 * Math.max(1, Math.abs(want));
      return ok ? same(expected) : differ(`expected ${want} (to 1e-12), got ${JSON.stringify(actual)}`);
    }
    if (expected === "$date")
      return typeof actual === "string" && ISO_DATE.test(actual)
        ? same(expected)
        : differ(`expected an ISO date, got ${JSON.stringify(actual)}`);
    const bound = bindings.values.get(expected);
    if (!bindings.values.has(expected)) {
      bindings.values.set(expected, actual);
      return same(expected);
    }
    return JSON.stringify(bound) === JSON.stringify(actual)
      ? same(expected)
      : differ(`${expected} was ${JSON.stringify(bound)}, got ${JSON.stringify(actual)}`);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return differ(`expected an array, got ${JSON.stringify(actual)}`);
    const items = actual.map((a, i) =>
      i < expected.length ? reconcile(expected[i], a, bindings, `${path}[${i}]`) : same(asExpectation(a, bindings)),
    );
    const lengths =
      actual.length === expected.length
        ? null
        : `${path}: expected ${expected.length} elements, got ${actual.length}: ${JSON.stringify(actual)}`;
    return { value: items.map((r) => r.value), mismatch: items.find((r) => r.mismatch !== null)?.mismatch ?? lengths };
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual))
      return differ(`expected an object, got ${JSON.stringify(actual)}`);
    const want = expected as Record<string, unknown>;
    const ek = Object.keys(want);
    const ak = Object.keys(actual);
    const members =
      ek.join(",") === ak.join(",") ? null : `${path}: expected members [${ek.join(", ")}] in that order, got [${ak.join(", ")}]`;
    let mismatch: string | null = null;
    const value: Record<string, unknown> = {};
    for (const [k, a] of Object.entries(actual)) {
      const r = k in want ? reconcile(want[k], a, bindings, `${path}.${k}`) : same(asExpectation(a, bindings));
      value[k] = r.value;
      mismatch ??= r.mismatch;
    }
    return { value, mismatch: members ?? mismatch };
  }
  const resolved = typeof expected === "string" ? expandNames(expected, bindings) : expected;
  return JSON.stringify(resolved) === JSON.stringify(actual)
    ? same(expected)
    : differ(`expected ${JSON.stringify(resolved)}, got ${JSON.stringify(actual)}`);
}

/** Compares like `reconcile`; null on a match, else the JSON path of the first difference. */
export function matchJson(expected: unknown, actual: unknown, bindings: Bindings): string | null {
  return reconcile(expected, actual, bindings).mismatch;
}

/** "{$x}" inside a string: the string captured as "$x". */
function expandNames(text: string, bindings: Bindings): string {
  return text.replace(/\{(\$[A-Za-z0-9_]+)\}/g, (whole, name: string) => {
    const bound = bindings.values.get(name);
    return typeof bound === "string" ? bound : whole;
  });
}

/** Replaces "$x" strings in a request body with captured values. */
export function substitute(body: string, bindings: Bindings): string {
  return body.replace(/"(\$[A-Za-z0-9_]+)"/g, (whole, name: string) =>
    bindings.values.has(name) ? JSON.stringify(bindings.values.get(name)) : whole,
  );
}

/**
 * A value as an expectation the next run can match: ids (UUIDs) become the name they were
 * captured as, or a new capture ("$id1", ...); ids inside strings become "{$x}"; a timestamp
 * within a day of now (one the engine made) becomes "$date". Everything else is pinned as is.
 */
export function asExpectation(actual: unknown, bindings: Bindings): unknown {
  if (Array.isArray(actual)) return actual.map((a) => asExpectation(a, bindings));
  if (typeof actual === "object" && actual !== null)
    return Object.fromEntries(Object.entries(actual).map(([k, a]) => [k, asExpectation(a, bindings)]));
  if (typeof actual !== "string") return actual;
  if (UUID.test(actual)) return nameOf(actual, bindings) ?? capture(actual, bindings);
  if (ISO_DATE.test(actual) && Math.abs(Date.parse(actual) - Date.now()) < DAY_MS) return "$date";
  return actual.replace(UUID_INSIDE, (id) => {
    const name = nameOf(id, bindings);
    return name === null ? id : `{${name}}`;
  });
}

function nameOf(value: string, bindings: Bindings): string | null {
  for (const [name, bound] of bindings.values) if (bound === value) return name;
  return null;
}

function capture(value: string, bindings: Bindings): string {
  let n = 1;
  while (bindings.values.has(`$id${n}`) || bindings.reserved.has(`$id${n}`)) n++;
  bindings.values.set(`$id${n}`, value);
  return `$id${n}`;
}

/** One-line JSON in the corpus's style: `{"a": 1, "b": [1, 2]}`. */
export function formatJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatJson).join(", ")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${formatJson(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}
