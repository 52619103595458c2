// One shell session: runs each entry (a query or a `:command`) against the endpoint and prints
// what came back, keeping the state between entries (the parameters, tables or JSON). It is the
// same on a terminal and on stdin; repl.ts and script.ts feed it lines.
import { closestName } from "../../core/suggest.js";
import { errorCode, failureText, succeeded } from "./answer.js";
import type { Endpoint, Reply } from "./endpoint.js";
import type { Entry } from "./input.js";
import { showAnswer, showExplain, showQueries, showSchema } from "./show.js";

export const HELP = `Type a query and press Enter: a whole QUERY, a body ending in RETURN, or one expression.
A query goes on to the next line while a bracket ( [ { is open and, when it starts with QUERY or
has an assignment (x <- ..), a DROP or a FOR, until its RETURN. A line ending in \\ continues;
a line ending in ; or a blank line ends the query as it is.
  :schema            the types of the schema
  :queries           the served queries, their parameters and what they return
  :params {json}     the parameters of the queries that follow (:params alone shows them)
  :explain <query>   what the query reads and how, without running it
  :json, :table      print answers as JSON, or as tables (wide values cut: :json shows them whole)
  :help              this text
  :quit              leave (or Ctrl-D); Ctrl-C drops the query being typed
`;

const COMMANDS = ["schema", "queries", "params", "explain", "json", "table", "help", "quit", "exit", "q"];

/** How many times a 401 asks for the key before it is printed as the answer. */
const KEY_TRIES = 3;

export interface SessionOptions {
  endpoint: Endpoint;
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Asks for the api key after a 401 (on a terminal); resolves null when none is given. Absent: never ask. */
  askKey?: () => Promise<string | null>;
}

export class Session {
  private params: Record<string, unknown> = {};
  private json: boolean;
  /** Set by :quit. */
  quit = false;

  constructor(private readonly options: SessionOptions) {
    this.json = options.json;
  }

  /** Runs one entry; false when it failed (a refused query, a bad command). */
  async run(entry: Entry): Promise<boolean> {
    if (entry.kind === "query") return this.query(entry.text, entry.explain);
    const { name, argument } = entry;
    switch (name) {
      case "schema":
      case "queries":
        return this.introspect(name);
      case "params":
        return this.setParams(argument);
      case "json":
      case "table":
        this.json = name === "json";
        this.options.out(`answers as ${this.json ? "JSON" : "tables"}\n`);
        return true;
      case "help":
        this.options.out(HELP);
        return true;
      case "quit":
      case "exit":
      case "q":
        this.quit = true;
        return true;
      default: {
        const near = closestName(name, COMMANDS);
        this.options.err(`strand: unknown command :${name}${near === undefined ? "" : `; did you mean :${near}?`} (:help lists them)\n`);
        return false;
      }
    }
  }

  /** `GET /introspect` once, asking for the key if the server wants one: the banner's query count, or null (it said why). */
  async connect(): Promise<number | null> {
    const reply = await this.withKey(() => this.options.endpoint.introspect());
    if (!succeeded(reply)) {
      this.fail(reply, "");
      return null;
    }
    const queries = (reply.body as { queries?: unknown } | null)?.queries;
    return Array.isArray(queries) ? queries.length : 0;
  }

  private async query(text: string, explain: boolean): Promise<boolean> {
    let params = this.params;
    if (!explain && Object.keys(params).length > 0) {
      // `:params` holds for every query that follows, but a query refuses parameters it does not
      // take (UNKNOWN_PARAMETER): its explanation says which it takes, and only those are sent.
      const explained = await this.withKey(() => this.options.endpoint.query({ text, params, explain: true }));
      if (!succeeded(explained)) return this.fail(explained, text);
      params = this.takenBy(explained.body);
    }
    const reply = await this.withKey(() => this.options.endpoint.query({ text, params, explain }));
    if (!succeeded(reply)) return this.fail(reply, text);
    this.options.out(this.json ? json(reply.body) : explain ? showExplain(reply.body) : showAnswer(reply.body));
    return true;
  }

  /** The session's parameters that an explanation (`{params: [{name}, ..]}`) lists. */
  private takenBy(explanation: unknown): Record<string, unknown> {
    const listed = (explanation as { params?: unknown } | null)?.params;
    if (!Array.isArray(listed)) return this.params;
    const names = new Set(listed.map((p) => (p as { name?: unknown } | null)?.name));
    return Object.fromEntries(Object.entries(this.params).filter(([name]) => names.has(name)));
  }

  private async introspect(what: "schema" | "queries"): Promise<boolean> {
    const reply = await this.withKey(() => this.options.endpoint.introspect());
    if (!succeeded(reply)) return this.fail(reply, "");
    const body = reply.body as Record<string, unknown>;
    if (this.json) this.options.out(json(body[what]));
    else this.options.out(what === "schema" ? showSchema(body) : showQueries(body));
    return true;
  }

  private setParams(argument: string): boolean {
    if (argument === "") {
      this.options.out(`${JSON.stringify(this.params)}\n`);
      return true;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(argument);
    } catch (error) {
      this.options.err(`strand: :params takes a JSON object: ${(error as Error).message}\n`);
      return false;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      this.options.err('strand: :params takes a JSON object, e.g. :params {"city": "London"}\n');
      return false;
    }
    this.params = parsed as Record<string, unknown>;
    return true;
  }

  /** `send`, and again with the key asked for while the answer is 401 and a key is given. */
  private async withKey(send: () => Promise<Reply>): Promise<Reply> {
    let reply = await send();
    for (let i = 0; i < KEY_TRIES && this.options.askKey !== undefined && errorCode(reply) === "UNAUTHORIZED"; i++) {
      const key = await this.options.askKey();
      if (key === null) break;
      this.options.endpoint.useKey(key);
      reply = await send();
    }
    return reply;
  }

  private fail(reply: Reply, text: string): false {
    this.options.err(failureText(reply, text));
    if (errorCode(reply) === "UNAUTHORIZED" && this.options.askKey === undefined) {
      this.options.err("  give the server's api key with --key or STRAND_API_KEY\n");
    }
    return false;
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
