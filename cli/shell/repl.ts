// The shell on a terminal: node:readline with line editing and the history of earlier runs
// (history.ts), a prompt that says whether a query is pending, Ctrl-C to drop it, Ctrl-D or :quit
// to leave. A 401 asks for the api key without echoing it, and keeps it out of the history.
import { createInterface, type Interface } from "node:readline";
import { Writable } from "node:stream";
import type { Endpoint } from "./endpoint.js";
import { HISTORY_SIZE, loadHistory, saveHistory } from "./history.js";
import { EntryReader } from "./input.js";
import { Session } from "./session.js";

export const PROMPT = "strand> ";
export const MORE = "   ...> ";

export interface ReplOptions {
  input: NodeJS.ReadableStream;
  /** The terminal (its `columns` size the line editor). */
  output: NodeJS.WritableStream & { columns?: number };
  endpoint: Endpoint;
  json: boolean;
  /** Where the history is kept; null: nowhere. */
  historyFile: string | null;
  err: (text: string) => void;
}

export async function runRepl(options: ReplOptions): Promise<number> {
  const output = new MutableOutput(options.output);
  const rl = createInterface({
    input: options.input,
    output,
    terminal: true,
    history: loadHistory(options.historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    prompt: PROMPT,
  });
  // Before anything is awaited: a line typed meanwhile (while connecting) waits here, not lost.
  const lines = rl[Symbol.asyncIterator]();
  const keyAsker = new KeyAsker(rl, output);
  rl.on("history", (history: string[]) => {
    if (!keyAsker.asking) saveHistory(options.historyFile, history);
  });
  const out = (text: string): void => void output.write(text);
  const session = new Session({ endpoint: options.endpoint, json: options.json, out, err: options.err, askKey: () => keyAsker.ask() });
  const reader = new EntryReader();
  rl.on("SIGINT", () => {
    if (keyAsker.cancel()) return;
    // The typed text stays on its line, marked; the next line starts a new query.
    reader.clear();
    rl.write(null, { ctrl: true, name: "e" });
    out("^C\n");
    rl.setPrompt(PROMPT);
    rl.write(null, { ctrl: true, name: "u" });
  });
  const queries = await session.connect();
  if (queries !== null)
    out(`connected to ${options.endpoint.where}: ${queries} ${queries === 1 ? "query" : "queries"}; :help lists the commands\n`);
  rl.prompt();
  try {
    for (let next = await lines.next(); next.done !== true; next = await lines.next()) {
      const line = next.value;
      const entry = reader.push(line);
      if (entry !== null) await session.run(entry);
      if (session.quit) break;
      rl.setPrompt(reader.pending ? MORE : PROMPT);
      rl.prompt();
    }
  } finally {
    rl.close();
  }
  if (!session.quit) out("\n"); // Ctrl-D: end the prompt's line
  return 0;
}

/** The terminal, or nothing while a key is typed (readline echoes what it reads to its output). */
class MutableOutput extends Writable {
  muted = false;

  constructor(private readonly target: NodeJS.WritableStream & { columns?: number }) {
    super();
    target.on("resize", () => this.emit("resize"));
  }

  get columns(): number | undefined {
    return this.target.columns;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.muted) done();
    else this.target.write(chunk, (error) => done(error ?? null));
  }
}

/** Asks for the api key on the shell's own line editor, unechoed and unrecorded. */
class KeyAsker {
  asking = false;
  private abort: AbortController | null = null;
  private cancelled: (() => void) | null = null;

  constructor(
    private readonly rl: Interface,
    private readonly output: MutableOutput,
  ) {}

  ask(): Promise<string | null> {
    this.output.write("the server needs an api key (Enter without one: give up): ");
    this.output.muted = true;
    this.asking = true;
    // readline records every line it reads in the history: not this one.
    const editor = this.rl as unknown as { historySize: number };
    const historySize = editor.historySize;
    editor.historySize = 0;
    const abort = new AbortController();
    this.abort = abort;
    return new Promise<string | null>((resolve) => {
      const settle = (key: string | null): void => {
        editor.historySize = historySize;
        this.output.muted = false;
        this.asking = false;
        this.abort = null;
        this.cancelled = null;
        this.output.write("\n");
        resolve(key === null || key.trim() === "" ? null : key.trim());
      };
      this.cancelled = () => settle(null);
      this.rl.question("", { signal: abort.signal }, (answer) => settle(answer));
    });
  }

  /** Ctrl-C while asking: give up on the key (true), else false. */
  cancel(): boolean {
    if (this.abort === null || this.cancelled === null) return false;
    const cancelled = this.cancelled;
    this.abort.abort();
    cancelled();
    return true;
  }
}
