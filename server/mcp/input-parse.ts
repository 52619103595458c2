// A tool's input checked against its zod schema (input-schemas.ts), and the first thing wrong with
// it as the StrandError the call answers. zod reports every issue; the one reported is the one a
// reader meets first: an object's unknown members before anything inside it, then the members in
// the schema's order. Its message comes from the field's words (input-words.ts); a null member
// is an absent one (a required one is missing, an optional one is left out).
import * as z from "zod/v4";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { closestName } from "../../core/suggest.js";
import { describeValue } from "../../core/values.js";
import { fieldPath, invalid, isObject, missing } from "./body.js";
import { unwrapped, wordsOf } from "./input-words.js";

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** The input as the schema outputs it; throws the StrandError of its first issue. */
export function parseInput<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw inputError(schema, body, firstIssue(parsed.error.issues));
}

const envelopes = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * The body's connection_id, checked with the body's own members (unknown ones are refused) and
 * nothing inside them: a call names its connection before its data is read.
 */
export function parseConnectionId(schema: z.ZodObject, body: unknown): string {
  let envelope = envelopes.get(schema);
  if (envelope === undefined) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(schema.shape)) shape[key] = key === "connection_id" ? field : z.unknown().optional();
    envelope = z.strictObject(shape);
    envelopes.set(schema, envelope);
  }
  return (parseInput(envelope, body) as { connection_id: string }).connection_id;
}

function firstIssue(issues: readonly Issue[]): Issue {
  const first = resolved(issues[0]!);
  let outer: Issue | undefined;
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys" || !startsWith(first.path, issue.path)) continue;
    if (outer === undefined || issue.path.length < outer.path.length) outer = issue;
  }
  return outer ?? first;
}

/** A union's issue as the issue of the option the value's type matched, when one did. */
function resolved(issue: Issue): Issue {
  if (issue.code !== "invalid_union") return issue;
  const option = issue.errors.find((errors) => errors.length > 0 && !mismatched(errors[0]!));
  if (option === undefined) return issue;
  const inner = firstIssue(option);
  return { ...inner, path: [...issue.path, ...inner.path] };
}

function mismatched(issue: Issue): boolean {
  return issue.path.length === 0 && issue.code === "invalid_type";
}

function startsWith(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((key, i) => path[i] === key);
}

function inputError(schema: z.ZodType, body: unknown, issue: Issue): StrandError {
  const path = issue.path;
  const along = schemasAlong(schema, path);
  if (issue.code === "unrecognized_keys") return unknownMember(pathText(path), issue.keys[0]!, along[path.length]);
  if (path.length === 0) return new StrandError("INVALID_BODY", `request body must be a JSON object, got ${describeValue(body)}`);
  const value = valueAt(body, path);
  const words = wordsOf(along[path.length]);
  const expected = typeof words?.expected === "function" ? words.expected(issue) : words?.expected;
  if ((value === undefined || value === null) && typeof path[path.length - 1] === "string") {
    return missing(pathText(path), words?.what ?? along[path.length]?.description ?? expected ?? "required");
  }
  for (let depth = 1; depth <= path.length; depth++) {
    const check = wordsOf(along[depth])?.check;
    if (check !== undefined) check(valueAt(body, path.slice(0, depth)), pathText(path.slice(0, depth)));
  }
  const what = expected ?? words?.what ?? along[path.length]?.description;
  if (what === undefined) return new StrandError("INVALID_PARAMETER", `'${pathText(path)}': ${issue.message}`);
  return invalid(pathText(path), what, value);
}

function unknownMember(path: string, key: string, object: z.ZodType | undefined): StrandError {
  const allowed = Object.keys(shapeOf(object) ?? {});
  const suggestion = closestName(key, allowed);
  const hint =
    suggestion !== undefined ? `; did you mean '${suggestion}'?` : ` (expected: ${allowed.length > 0 ? allowed.join(", ") : "none"})`;
  return new StrandError("UNKNOWN_PARAMETER", `unknown member '${fieldPath(path, echo(key))}'${hint}`);
}

/** The schema at each prefix of `path` (index 0: the root), undefined past where the schema says nothing. */
function schemasAlong(root: z.ZodType, path: Path): Array<z.ZodType | undefined> {
  const out: Array<z.ZodType | undefined> = [root];
  let at: z.ZodType | undefined = root;
  for (const key of path) {
    at = at === undefined ? undefined : childOf(at, key);
    out.push(at);
  }
  return out;
}

function childOf(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  while (s !== undefined && unwrapped(s) !== undefined) s = unwrapped(s);
  if (s instanceof z.ZodObject) return typeof key === "string" && Object.hasOwn(s.shape, key) ? (s.shape[key] as z.ZodType) : undefined;
  if (s instanceof z.ZodArray) return typeof key === "number" ? (s.element as z.ZodType) : undefined;
  if (s instanceof z.ZodUnion) {
    for (const option of s.options as readonly z.ZodType[]) {
      const child = childOf(option, key);
      if (child !== undefined) return child;
    }
  }
  return undefined;
}

function shapeOf(schema: z.ZodType | undefined): Record<string, unknown> | undefined {
  let s = schema;
  while (s !== undefined && unwrapped(s) !== undefined) s = unwrapped(s);
  return s instanceof z.ZodObject ? s.shape : undefined;
}

function valueAt(body: unknown, path: Path): unknown {
  let at = body;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === "number") at = at[key];
    else if (isObject(at) && typeof key === "string" && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

/** `data.filter.properties[0][1]`. */
function pathText(path: Path): string {
  let text = "";
  for (const key of path) text = fieldPath(text, typeof key === "number" ? key : String(key));
  return text;
}
