// The MCP memory servers the memory tests drive through the official SDK client: the reference
// (@modelcontextprotocol/server-memory, its file in MEMORY_FILE_PATH) and `strand memory` (built
// dist/), each a child process over stdio. connect() resolves once the MCP handshake is done: the
// tests wait on the protocol, never on a clock.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, REPO_ROOT } from "./server.js";

export const REFERENCE = join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

/** What a tool call answered: the result as the client received it (content, structuredContent, isError). */
export type ToolAnswer = Record<string, unknown>;

export interface MemoryClient {
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  client: Client;
  /** Everything the server wrote to stderr. */
  stderr(): string;
  close(): Promise<void>;
}

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport, stderr: () => string): Promise<MemoryClient> {
  const client = new Client({ name: "strand-memory-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolAnswer,
    close: () => client.close(),
  };
}

async function stdio(command: string, args: string[], env: Record<string, string>): Promise<MemoryClient> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
    cwd: REPO_ROOT,
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  try {
    return await connect(transport, () => log);
  } catch (error) {
    throw new Error(`the MCP server did not start: ${(error as Error).message}\n${log}`);
  }
}

/** The reference server over the JSONL file `file`. */
export function startReference(file: string): Promise<MemoryClient> {
  return stdio(process.execPath, [REFERENCE], { MEMORY_FILE_PATH: file });
}

/** `strand memory --data dir`. */
export function startStrandMemory(dataDir: string): Promise<MemoryClient> {
  return stdio(process.execPath, [CLI, "memory", "--data", dataDir], {});
}

/** The tools at a running serve's /memory/mcp. */
export function connectHttp(url: string): Promise<MemoryClient> {
  return connect(new StreamableHTTPClientTransport(new URL(`${url}/memory/mcp`)), () => "");
}

/** A seeded PRNG (mulberry32): the same seed, the same sequence of calls. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}
