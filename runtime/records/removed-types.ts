// The refusal for stored records of a type the schema no longer declares, shared by the open's
// check (runtime/migrate/plan.ts checkRemovedTypes) and DROP (runtime/write/graph-writer.ts), which
// meets such records only if that check was bypassed. A leaf module.
import { echo } from "../../core/echo.js";

export interface RemovedType {
  /** "E::Knows" */
  ref: string;
  /** "DROP E<Knows>" */
  drop: string;
  /** how many records it holds, and one id, when known */
  count?: number;
  sample?: string;
}

/**
 * "the data holds records of a type the schema no longer declares: E::Knows (3 records, e.g. ..);
 * <consequence>. Declare E::Knows again, or delete its records first with the previous project
 * (e.g. DROP E<Knows>); a MIGRATION cannot remove a type". Names and ids are echoed bounded.
 */
export function removedTypesMessage(removed: readonly RemovedType[], consequence: string): string {
  const one = removed.length === 1;
  const held = removed
    .map((r) =>
      r.count === undefined
        ? echo(r.ref)
        : `${echo(r.ref)} (${r.count} record${r.count === 1 ? "" : "s"}${r.sample === undefined ? "" : `, e.g. ${echo(r.sample)}`})`,
    )
    .join(", ");
  const names = removed.map((r) => echo(r.ref));
  const refs = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]!}`;
  return (
    `the data holds records of ${one ? "a type" : "types"} the schema no longer declares: ${held}; ${consequence}. ` +
    `Declare ${refs} again, or delete ${one ? "its" : "their"} records first with the previous project (e.g. ${removed.map((r) => echo(r.drop)).join(", ")}); a MIGRATION cannot remove a type`
  );
}
