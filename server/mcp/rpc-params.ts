// JSON-RPC requests whose params do not fit the method are answered -32602 Invalid params with a
// one-line message. The SDK's Protocol parses params inside its handler wrapper and answers a
// failure as -32603 Internal error whose message is zod's multi-line issue dump; checking the
// params before the message reaches the Protocol keeps that answer for real internal errors.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";

interface ParamsSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly Issue[] } };
}

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The methods this server answers, with the shape of their requests. */
const REQUESTS: ReadonlyMap<string, ParamsSchema> = new Map<string, ParamsSchema>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
]);

/** What is wrong with the request's params (first issue), or null when they fit or the method is not checked here. */
export function invalidParams(message: JSONRPCMessage): string | null {
  if (!isJSONRPCRequest(message)) return null;
  const schema = REQUESTS.get(message.method);
  if (schema === undefined) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (issue === undefined) return `invalid params of ${message.method}`;
  const where = issue.path.map(String).join(".");
  return `invalid params of ${message.method}: '${where}': ${issue.message.replace(/^Invalid input: /, "")}`;
}

/** Answers requests with invalid params itself (-32602) before the connected Protocol sees them. Call after connect. */
export function guardParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const problem = invalidParams(message);
    if (problem === null || !isJSONRPCRequest(message)) {
      deliver?.(message, extra);
      return;
    }
    void transport.send({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InvalidParams, message: problem } });
  };
}
