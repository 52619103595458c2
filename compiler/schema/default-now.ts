// DEFAULT NOW on a field (core/now-default.ts decides what each type stores): nothing to say on a
// Date; a warning (W004) on a 64-bit integer, which stores epoch milliseconds; an error (E202) on
// any other type, naming the field and its type and, for a narrower integer, why it cannot hold it.
import { helixTypeName, type ValueType } from "../../core/schema.js";
import { nowDefaultForm } from "../../core/now-default.js";
import { integerRange } from "../../core/scalars.js";
import { error, warning, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Span } from "../diagnostics/span.js";

export function nowDefaultDiagnostic(field: string, type: ValueType, span: Span): Diagnostic | null {
  const typeName = helixTypeName(type);
  switch (nowDefaultForm(type)) {
    case "date":
      return null;
    case "epoch-ms":
      return warning(
        "W004",
        `DEFAULT NOW on ${typeName} field '${field}' stores the time as epoch milliseconds (a number), not as a Date`,
        span,
        `declare '${field}' as Date to store a time that reads as one and compares with NOW and Date values`,
      );
    case null: {
      const range = type.kind === "scalar" ? integerRange(type.name) : undefined;
      const why = range === undefined ? "" : `, too small for the time in epoch milliseconds (${typeName} holds at most ${range.max})`;
      return error(
        "E202",
        `DEFAULT NOW needs a Date or 64-bit integer field; '${field}' is ${typeName}${why}`,
        span,
        range === undefined ? `declare '${field}' as Date` : `declare '${field}' as Date (or as I64, which stores epoch milliseconds)`,
      );
    }
  }
}
