// `strand query <url> [text]`: one ad-hoc query against a running server (`POST /query`), for
// scripts and CI. The text is a whole QUERY, a body with a RETURN, or one expression; from the
// argument, else from stdin. The answer is printed as JSON; a query that does not compile prints
// each diagnostic with its line and a caret under the place (exit 1), as `strand check` does.
import { readFileSync } from "node:fs";
import { failureText, succeeded } from "../shell/answer.js";
import { HttpEndpoint } from "../shell/http-endpoint.js";

export interface QueryOptions {
  url: string;
  /** null: read from stdin */
  text: string | null;
  params: Record<string, unknown>;
  key: string | undefined;
  explain: boolean;
}

export async function runQuery(options: QueryOptions): Promise<number> {
  const text = options.text ?? readFileSync(0, "utf8");
  if (text.trim() === "") {
    process.stderr.write("strand: no query: give it as an argument or on stdin\n");
    return 2;
  }
  const reply = await new HttpEndpoint(options.url, options.key).query({ text, params: options.params, explain: options.explain });
  if (succeeded(reply)) {
    process.stdout.write(`${JSON.stringify(reply.body, null, 2)}\n`);
    return 0;
  }
  process.stderr.write(failureText(reply, text));
  return 1;
}
