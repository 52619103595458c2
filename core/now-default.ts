// DEFAULT NOW: what a field declared with it gets when a record is created without it. A Date
// field gets the time as a Date (its RFC 3339 wire form). An integer field gets it as epoch
// MILLISECONDS, a number — HelixDB schemas write `created_at: I64 DEFAULT NOW` — but only a type
// that can hold every Date in milliseconds (up to 9999-12-31, 253402300799999): I64, U64, U128.
//
// I8..I32 and U8..U32 are refused by the compiler (E202). Epoch milliseconds overflow I32 some 25
// days after 1970 and U32 some 50. Storing seconds there instead would fit (I32 until 2038, U32
// until 2106), but then the same `DEFAULT NOW` would mean milliseconds in one field and seconds
// in another, which nothing in the stored data tells apart, and an I32 field would still break in
// 2038. Refusing costs the user one word of the schema (I64, or better Date) and keeps data right.
import { integerRange } from "./scalars.js";
import type { ValueType } from "./schema.js";
import { MAX_DATE_MS } from "./values.js";

/** How a DEFAULT NOW field stores the time: a Date, epoch milliseconds, or null when it cannot hold it. */
export type NowDefaultForm = "date" | "epoch-ms" | null;

export function nowDefaultForm(type: ValueType): NowDefaultForm {
  if (type.kind !== "scalar") return null;
  if (type.name === "Date") return "date";
  const range = integerRange(type.name);
  return range !== undefined && range.max >= MAX_DATE_MS ? "epoch-ms" : null;
}
