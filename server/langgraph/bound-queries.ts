// The compiled queries of a built-in project (templates/langgraph/), bound by name: each call runs
// one query's `run` on the caller's QueryContext, so a request composes several inside one
// transaction, and the readers below check the shape of what comes back. A shape that does not
// fit is the project's bug, reported as INTERNAL, never passed on to a client.
import { StrandError } from "../../core/errors.js";
import type { PropValue } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import type { QueryModule } from "../../core/query-module.js";

export class BoundQueries<Name extends string> {
  private constructor(
    private readonly project: string,
    private readonly modules: ReadonlyMap<Name, QueryModule>,
  ) {}

  /** The queries named `names` among `queries`, or which are missing. */
  static bind<Name extends string>(
    project: string,
    names: readonly Name[],
    queries: readonly QueryModule[],
  ): BoundQueries<Name> | { missing: string[] } {
    const byName = new Map(queries.map((q) => [q.name, q]));
    const modules = new Map<Name, QueryModule>();
    const missing: string[] = [];
    for (const name of names) {
      const query = byName.get(name);
      if (query === undefined) missing.push(name);
      else modules.set(name, query);
    }
    return missing.length > 0 ? { missing } : new BoundQueries(project, modules);
  }

  /** Runs the query and returns its RETURN member `member` (undefined: the whole answer is ignored). */
  run(db: QueryContext, name: Name, params: Record<string, unknown>, member?: string): unknown {
    const result = this.modules.get(name)!.run(db, params);
    if (member === undefined) return undefined;
    if (typeof result !== "object" || result === null || !(member in result))
      throw this.shapeError(`${name}: an answer without '${member}'`);
    return (result as Record<string, unknown>)[member];
  }

  shapeError(what: string): StrandError {
    return new StrandError("INTERNAL", `the ${this.project} project's queries do not fit its schema: ${what}`);
  }

  list(value: unknown): unknown[] {
    if (!Array.isArray(value)) throw this.shapeError("a list that is not one");
    return value;
  }

  record(value: unknown): Record<string, PropValue> {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw this.shapeError("a record that is not one");
    return value as Record<string, PropValue>;
  }

  text(value: Record<string, PropValue>, field: string): string {
    const v = value[field];
    if (typeof v !== "string") throw this.shapeError(`'${field}' is not a String`);
    return v;
  }

  number(value: Record<string, PropValue>, field: string): number {
    const v = value[field];
    if (typeof v !== "number") throw this.shapeError(`'${field}' is not a number`);
    return v;
  }

  texts(value: Record<string, PropValue>, field: string): string[] {
    const v = value[field];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw this.shapeError(`'${field}' is not [String]`);
    return v as string[];
  }

  numbers(value: Record<string, PropValue>, field: string): number[] {
    const v = value[field];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "number")) throw this.shapeError(`'${field}' is not a list of numbers`);
    return v as number[];
  }
}
