// Hints for steps HelixDB users bring from other query languages (`::Limit(10)`, `::OrderBy`,
// `::Filter`): the unknown step is E902, with the HelixQL step that does the job.
import type * as A from "../syntax/ast.js";

/** The HelixQL way to write the unknown step `step`, or undefined when it is not a known habit. */
export function foreignStepHint(step: A.Step & { kind: "Call" }): string | undefined {
  const arg = step.args.length === 1 ? argText(step.args[0]!.value) : null;
  switch (step.name.name.toLowerCase().replace(/_/g, "")) {
    case "limit":
    case "take":
    case "top": {
      const n = arg ?? "n";
      return `HelixQL has no ::${step.name.name}: write ::RANGE(0, ${n}) for the first ${n} (::RANGE(start, end) keeps positions start to end - 1)`;
    }
    case "skip":
    case "offset":
      return `HelixQL has no ::${step.name.name}: write ::RANGE(${arg ?? "start"}, end) (::RANGE(start, end) keeps positions start to end - 1)`;
    case "orderby":
    case "sort":
    case "sortby": {
      const key = arg === null ? "_::{field}" : /^[A-Za-z_]\w*$/.test(arg) ? `_::{${arg}}` : arg;
      return `write ::ORDER<Asc>(${key}) (smallest first) or ::ORDER<Desc>(${key})`;
    }
    case "filter":
      return "write ::WHERE(condition), e.g. ::WHERE(_::{age}::GT(18))";
    default:
      return undefined;
  }
}

/** A short argument as written: a number, a name or a string; null for anything longer. */
function argText(e: A.Expr): string | null {
  if (e.kind === "Literal" && e.literal.kind === "Number") return e.literal.raw;
  if (e.kind === "Ident") return e.name;
  if (e.kind === "Literal" && e.literal.kind === "String") return JSON.stringify(e.literal.value);
  return null;
}
