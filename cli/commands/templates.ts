// The starters `strand init` offers (templates/<name>/ in the package): their names, what each
// holds, and the requests its next steps suggest. A leaf module: the argument parser reads the
// names from here without loading anything else.

/** A request the next steps print as a curl line, and the test sends as is. */
export interface ExampleCall {
  query: string;
  params: Readonly<Record<string, unknown>>;
}

export interface Template {
  name: string;
  /** One line for the menu and the usage text. */
  summary: string;
  /** Requests to try once the project serves (none: the README's quick start covers it). */
  examples: readonly ExampleCall[];
}

export const TEMPLATES: readonly Template[] = [
  {
    name: "social",
    summary: "a social graph: users, posts, weighted follows, 22 queries",
    examples: [],
  },
  {
    name: "agent-memory",
    summary: "an agent's memory: vectors with Embed, vector, keyword and hybrid recall",
    examples: [
      {
        query: "Remember",
        params: { handle: "ada", text: "Prefers green tea in the morning, never coffee", entities: ["tea", "coffee"] },
      },
      { query: "Remember", params: { handle: "ada", text: "Is writing a book about graph databases", entities: ["book"] } },
      { query: "HybridRecall", params: { handle: "ada", question: "what does she drink in the morning?", k: 2 } },
    ],
  },
];

/** What `strand init` uses when it is not told and cannot ask (stdin is not a terminal). */
export const DEFAULT_TEMPLATE = "social";

export const TEMPLATE_NAMES: readonly string[] = TEMPLATES.map((t) => t.name);

export function templateNamed(name: string): Template | undefined {
  return TEMPLATES.find((t) => t.name === name);
}

/** `curl -s localhost:6969/Remember -H 'content-type: application/json' -d '{"handle": "ada", ...}'` */
export function curlLine(call: ExampleCall, port = 6969): string {
  return `curl -s localhost:${port}/${call.query} -H 'content-type: application/json' -d '${spacedJson(call.params)}'`;
}

/** JSON with a space after each `:` and `,`, as the README writes request bodies. */
function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}
