// The declarative conformance case format (one file per feature, in test/conformance/*.case):
//
//   # one line saying what the case pins down
//   --- hx                        HelixQL source (schema and queries); may appear several times
//   --- call <Query> <json>       one request; "$name" strings in the body are replaced by captured values
//   --- expect [status]           the exact JSON response (status 200 when omitted)
//   --- diagnostics               instead of calls: the program must be rejected with exactly these
//                                 diagnostics, one per line: `CODE line:col` (line/col in the hx text)
//
// In expected JSON, a string "$x" captures the value found there the first time and must match it
// at every later use; "$date" matches any ISO 8601 timestamp, "$any" anything, and "$~1.2345"
// a number equal to 1.2345 within 1e-12 relative (scores computed by a formula). Inside any other
// expected string, "{$x}" stands for the string captured as "$x" (an id in an error message).

export interface CallStep {
  query: string;
  body: string;
  status: number;
  expected: string;
  line: number;
}

export interface CaseFile {
  title: string;
  hx: string;
  calls: CallStep[];
  diagnostics: string[] | null;
}

export function parseCaseFile(text: string, file: string): CaseFile {
  const lines = text.split("\n");
  let title = "";
  const hx: string[] = [];
  const calls: CallStep[] = [];
  let diagnostics: string[] | null = null;
  let section: { kind: "hx" | "call" | "expect" | "diagnostics" | "none"; buffer: string[] } = { kind: "none", buffer: [] };
  let pending: { query: string; body: string; line: number } | null = null;
  let expectStatus = 200;

  const flush = (): void => {
    const body = section.buffer.join("\n").trim();
    if (section.kind === "hx") hx.push(section.buffer.join("\n"));
    if (section.kind === "expect") {
      if (pending === null) throw new Error(`${file}: --- expect without a preceding --- call`);
      calls.push({ ...pending, status: expectStatus, expected: body });
      pending = null;
    }
    if (section.kind === "diagnostics") diagnostics = body.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  };

  lines.forEach((line, i) => {
    if (line.startsWith("# ") && title === "" && section.kind === "none") {
      title = line.slice(2).trim();
      return;
    }
    if (!line.startsWith("--- ")) {
      section.buffer.push(line);
      return;
    }
    flush();
    const header = line.slice(4).trim();
    if (header === "hx") section = { kind: "hx", buffer: [] };
    else if (header === "diagnostics") section = { kind: "diagnostics", buffer: [] };
    else if (header.startsWith("expect")) {
      const status = header.slice("expect".length).trim();
      expectStatus = status === "" ? 200 : Number(status);
      section = { kind: "expect", buffer: [] };
    } else if (header.startsWith("call ")) {
      if (pending !== null) throw new Error(`${file}:${i + 1}: --- call without --- expect for the previous call`);
      const rest = header.slice(5).trim();
      const space = rest.indexOf(" ");
      pending = { query: space < 0 ? rest : rest.slice(0, space), body: space < 0 ? "{}" : rest.slice(space + 1), line: i + 1 };
      section = { kind: "call", buffer: [] };
    } else throw new Error(`${file}:${i + 1}: unknown section '${header}'`);
  });
  flush();
  if (pending !== null) throw new Error(`${file}: the last --- call has no --- expect`);
  if (title === "") throw new Error(`${file}: the first line must be '# <what this case pins down>'`);
  return { title, hx: hx.join("\n"), calls, diagnostics };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Compares `actual` with `expected` (which may hold placeholders), capturing into `bindings`.
 * Returns null on a match, else the JSON path of the first difference.
 */
export function matchJson(expected: unknown, actual: unknown, bindings: Map<string, unknown>, path = "$"): string | null {
  if (typeof expected === "string" && expected.startsWith("$") && expected.length > 1) {
    if (expected === "$any") return null;
    if (expected.startsWith("$~")) {
      // A float computed by a formula: equal to 1e-12 relative (the last bits depend on operation order).
      const want = Number(expected.slice(2));
      const ok = typeof actual === "number" && Math.abs(actual - want) <= 1e-12 * Math.max(1, Math.abs(want));
      return ok ? null : `${path}: expected ${want} (to 1e-12), got ${JSON.stringify(actual)}`;
    }
    if (expected === "$date") return typeof actual === "string" && ISO_DATE.test(actual) ? null : `${path}: expected an ISO date, got ${JSON.stringify(actual)}`;
    if (!bindings.has(expected)) {
      bindings.set(expected, actual);
      return null;
    }
    return JSON.stringify(bindings.get(expected)) === JSON.stringify(actual) ? null : `${path}: ${expected} was ${JSON.stringify(bindings.get(expected))}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) return `${path}: expected ${expected.length} elements, got ${actual.length}: ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const r = matchJson(expected[i], actual[i], bindings, `${path}[${i}]`);
      if (r !== null) return r;
    }
    return null;
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    const ek = Object.keys(expected);
    const ak = Object.keys(actual);
    if (ek.join(",") !== ak.join(",")) return `${path}: expected members [${ek.join(", ")}] in that order, got [${ak.join(", ")}]`;
    for (const k of ek) {
      const r = matchJson((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], bindings, `${path}.${k}`);
      if (r !== null) return r;
    }
    return null;
  }
  if (typeof expected === "string") expected = expected.replace(/\{(\$[A-Za-z0-9_]+)\}/g, (whole, name: string) => {
    const bound = bindings.get(name);
    return typeof bound === "string" ? bound : whole;
  });
  return JSON.stringify(expected) === JSON.stringify(actual) ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** Replaces "$x" strings in a request body with captured values. */
export function substitute(body: string, bindings: ReadonlyMap<string, unknown>): string {
  return body.replace(/"(\$[A-Za-z0-9_]+)"/g, (whole, name: string) => (bindings.has(name) ? JSON.stringify(bindings.get(name)) : whole));
}
