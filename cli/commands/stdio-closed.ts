// When an MCP server over stdio should stop: its client closed the transport or stdin, or the
// process got SIGINT/SIGTERM (`strand mcp --stdio`, `strand memory`).
import type { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

export function stdioClosed(transport: StdioServerTransport): Promise<void> {
  return new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
}
