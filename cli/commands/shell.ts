// `strand shell [URL]` and `strand shell [dir] --data DIR [--write]`: HelixQL typed at a prompt
// against a running server, or against a stopped store opened in this process (cli/shell/). On a
// terminal it is a REPL; with stdin from a pipe or a file it runs the queries it reads, prints each
// answer and exits 1 if any failed (scripts and CI).
import type { GivenSettings } from "../config/knobs.js";
import type { Endpoint } from "../shell/endpoint.js";
import { historyFile } from "../shell/history.js";
import { HttpEndpoint } from "../shell/http-endpoint.js";
import { runRepl } from "../shell/repl.js";
import { runScript } from "../shell/script.js";
import { Session } from "../shell/session.js";

export type ShellTarget =
  | { kind: "server"; url: string; key: string | undefined }
  | { kind: "local"; dir: string; flags: GivenSettings; write: boolean };

export interface ShellOptions {
  target: ShellTarget;
  /** Answers as JSON from the start (else tables; `:json` and `:table` switch). */
  json: boolean;
}

/** The status of a process killed by SIGPIPE, which `strand shell ... | head` returns (as export does). */
const EXIT_BROKEN_PIPE = 141;

export async function runShell(options: ShellOptions): Promise<number> {
  const { target } = options;
  const endpoint: Endpoint | null =
    target.kind === "server"
      ? new HttpEndpoint(target.url, target.key)
      : await (await import("../shell/local-endpoint.js")).openLocalEndpoint(target);
  if (endpoint === null) return 1;
  // `strand shell URL < queries | head`: a reader that stops early is not a failure to report.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(EXIT_BROKEN_PIPE);
    throw error;
  });
  const err = (text: string): void => void process.stderr.write(text);
  try {
    if (process.stdin.isTTY === true) {
      return await runRepl({
        input: process.stdin,
        output: process.stdout,
        endpoint,
        json: options.json,
        historyFile: historyFile(process.env),
        err,
      });
    }
    const out = (text: string): void => void process.stdout.write(text);
    return await runScript(process.stdin, new Session({ endpoint, json: options.json, out, err }));
  } finally {
    await endpoint.close();
  }
}
