// Validation of a request body against a query's declared parameters: the edge of trust. The body
// is checked against the query's ParamSpecs (core/query-module.ts), naming the culprit (unknown,
// missing, mistyped); each value goes through checkValue (core/values.ts), so parameters are
// canonical before the query runs; a parameter used as a vector (`vector: true`) has each component
// checked as one (400 INVALID_PARAMETER naming `v[i]`, before anything is written).
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { setMember } from "../../core/items.js";
import type { ParamSpec } from "../../core/query-module.js";
import type { JsonValue } from "../../core/schema.js";
import { checkValue } from "../../core/values.js";
import { vectorComponentProblem } from "../../runtime/vector/metric.js";

/**
 * Checks `body` (parsed JSON) against `specs` and returns the canonical parameter values.
 * A required parameter that is absent or null is MISSING_PARAMETER; an optional one that is
 * absent or null is left out of the result.
 */
export function validateParams(specs: readonly ParamSpec[], body: unknown): Record<string, JsonValue> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new StrandError("INVALID_BODY", "request body must be a JSON object of parameters");
  }
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!specs.some((s) => s.name === key)) {
      const known = specs.length > 0 ? specs.map((s) => s.name).join(", ") : "none";
      throw new StrandError("UNKNOWN_PARAMETER", `unknown parameter '${echo(key)}' (parameters: ${known})`);
    }
  }
  const out: Record<string, JsonValue> = {};
  for (const spec of specs) {
    const value = Object.hasOwn(input, spec.name) ? input[spec.name] : undefined;
    if (value === undefined || value === null) {
      if (spec.optional) continue;
      throw new StrandError("MISSING_PARAMETER", `missing required parameter '${spec.name}'`);
    }
    const r = checkValue(spec.type, value, spec.name);
    if (!r.ok) throw new StrandError("INVALID_PARAMETER", `parameter ${r.message}`);
    if (spec.vector === true) checkVectorParam(r.value, spec.name);
    setMember(out, spec.name, r.value);
  }
  return out;
}

/**
 * A parameter used as a vector (ParamSpec.vector), already checked against its declared type:
 * each component must also pass the vector-component check. checkVector would refuse it later
 * too, but only as INVALID_VALUE naming the operation; here the error names the parameter
 * (`parameter 'v[0]' must fit in F32 ...`), and it comes before anything is written.
 */
function checkVectorParam(value: JsonValue, name: string): void {
  if (!Array.isArray(value)) return;
  for (let i = 0; i < value.length; i++) {
    const problem = vectorComponentProblem(value[i]);
    if (problem !== null) throw new StrandError("INVALID_PARAMETER", `parameter '${name}[${i}]' ${problem}`);
  }
}
