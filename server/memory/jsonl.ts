// The file of the reference MCP memory server (MEMORY_FILE_PATH, memory.jsonl): one JSON object a
// line, `{"type":"entity","name","entityType","observations"}` or
// `{"type":"relation","from","to","relationType"}`; blank lines are skipped, as the reference
// skips them. Parsing is strict where the reference is lax (it takes any line and any members):
// a line that is not JSON, of another type, or missing a member or with one of the wrong kind is
// an error naming the line, and `strand memory import` then writes nothing. Extra members are
// ignored.
import type { Entity, Relation } from "./graph.js";
import type { ImportItem } from "./graph-import.js";

export type ParsedFile = { ok: true; items: ImportItem[] } | { ok: false; line: number; message: string };

export function parseMemoryFile(text: string): ParsedFile {
  const items: ImportItem[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const source = lines[i]!;
    if (source.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      return { ok: false, line, message: `not JSON (${(error as Error).message})` };
    }
    const item = itemOf(value);
    if (typeof item === "string") return { ok: false, line, message: item };
    items.push(
      item.kind === "entity" ? { line, kind: "entity", entity: item.entity } : { line, kind: "relation", relation: item.relation },
    );
  }
  return { ok: true, items };
}

type Item = { kind: "entity"; entity: Entity } | { kind: "relation"; relation: Relation };

/** The line's entity or relation, or what is wrong with it. */
function itemOf(value: unknown): Item | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return 'expected an object with "type": "entity" or "relation"';
  const members = value as Record<string, unknown>;
  const text = (name: string): string | null => (typeof members[name] === "string" ? (members[name] as string) : null);
  const missing = (names: readonly string[], what: string): string | null => {
    const bad = names.find((name) => text(name) === null);
    return bad === undefined ? null : `${what}: "${bad}" must be a string`;
  };
  if (members.type === "entity") {
    const problem = missing(["name", "entityType"], "entity");
    if (problem !== null) return problem;
    const observations = members.observations;
    if (!Array.isArray(observations) || !observations.every((o) => typeof o === "string"))
      return 'entity: "observations" must be an array of strings';
    return { kind: "entity", entity: { name: text("name")!, entityType: text("entityType")!, observations: observations as string[] } };
  }
  if (members.type === "relation") {
    const problem = missing(["from", "to", "relationType"], "relation");
    if (problem !== null) return problem;
    return { kind: "relation", relation: { from: text("from")!, to: text("to")!, relationType: text("relationType")! } };
  }
  return `"type" must be "entity" or "relation", got ${JSON.stringify(members.type) ?? "none"}`;
}
