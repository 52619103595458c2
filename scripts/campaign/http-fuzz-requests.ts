// The requests of the HTTP fuzz campaign: every front door of `strand serve` with bodies, methods,
// headers and paths drawn from a seed — named queries (valid and broken parameters), the built-in
// routes, the agent tools (`POST /mcp/<tool>`, with connection ids the server handed out), MCP
// JSON-RPC (`POST /mcp`), and raw bytes Node's HTTP parser refuses (bad methods, non-ASCII paths,
// oversized headers, `Expect: bogus`). Every request is complete: the server never has to wait
// for bytes that will not come, so an unanswered request is a hang.
import { BUILTIN_TOOL_NAMES } from "../../server/mcp/tool-names.js";
import { between, pick, type Random } from "./random.js";

export type FuzzRequest =
  | { kind: "http"; method: string; path: string; headers: Record<string, string>; body?: string | Buffer; label: string }
  | { kind: "raw"; bytes: Buffer; label: string };

/** Ids and connection ids seen in answers, so later requests can name real records. */
export interface FuzzPool {
  ids: string[];
  connections: string[];
}

const QUERIES: Record<string, string[]> = {
  AddItem: ["key", "grp", "text", "n"],
  Ingest: ["items"],
  LinkItems: ["from", "to", "w"],
  UpdateItem: ["id", "text", "n"],
  DropItem: ["id"],
  AddVec: ["v", "key"],
  DropVec: ["id"],
  AllItems: [],
  AllLinks: [],
  AllVecs: [],
  ByKey: ["key"],
  InGroup: ["grp"],
  LinksOf: ["id"],
  CountItems: [],
  SearchText: ["q", "k"],
  Nearest: ["v", "k"],
  TwoHops: ["id"],
};
const READS = ["AllItems", "ByKey", "InGroup", "LinksOf", "CountItems", "SearchText", "Nearest", "TwoHops", "AllVecs", "AllLinks"];
// Every built-in tool (the server's own list, so a new tool is fuzzed too), and names that are none.
const TOOLS = [...BUILTIN_TOOL_NAMES, "nope", "INIT", "init%00"];
const RPC_METHODS = [
  "initialize",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "prompts/list",
  "ping",
  "notifications/initialized",
  "completion/complete",
  "logging/setLevel",
  "nope",
  "",
];
const TYPES = ["Item", "Vec", "Link", "Nope", "", "item"];
const CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/json; charset=latin1",
  "multipart/form-data; boundary=x",
  "",
];
const STRINGS = [
  "",
  "a",
  "amber",
  "t",
  "null",
  "0",
  "-1",
  "1e999",
  "true",
  "é",
  "😀",
  "\u0000",
  "\ud800",
  "<script>",
  "../../etc/passwd",
  "%00",
  "01a216ac-136a-743c-9440-1bed456d7f39",
  "00000000-0000-0000-0000-000000000000",
  "ID",
  "2026-11-26T07:00:00Z",
];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  15,
  16,
  255,
  4294967295,
  4294967296,
  -4294967296,
  2 ** 53,
  2 ** 53 + 2,
  1e308,
  -1e308,
  0.5,
  1e-320,
  3.4028236e38,
];

export function fuzzValue(random: Random, pool: FuzzPool, depth = 0): unknown {
  switch (between(random, 0, depth > 2 ? 7 : 10)) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick(random, NUMBERS);
    case 3:
      return between(random, -1000, 1000);
    case 4:
      return pool.ids.length > 0 && random() < 0.5 ? pick(random, pool.ids) : pick(random, STRINGS);
    case 5:
      return random() < 0.02 ? "x".repeat(between(random, 1000, 200_000)) : `${pick(random, STRINGS)}${between(random, 0, 99)}`;
    case 6:
      return Array.from({ length: between(random, 0, 12) }, () => random() * 2 - 1);
    case 7:
      return Array.from({ length: between(random, 0, 5) }, () => fuzzValue(random, pool, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = between(random, 0, 5); i > 0; i--)
        out[pick(random, [...STRINGS, "key", "text", "v", "k", "id"])] = fuzzValue(random, pool, depth + 1);
      return out;
    }
  }
}

function plausible(random: Random, name: string, pool: FuzzPool): unknown {
  switch (name) {
    case "id":
    case "from":
    case "to":
      return pool.ids.length > 0 && random() < 0.8 ? pick(random, pool.ids) : fuzzValue(random, pool);
    case "v":
      return Array.from({ length: random() < 0.8 ? 8 : between(random, 0, 300) }, () => random() * 2 - 1);
    case "items":
      return Array.from({ length: between(random, 0, random() < 0.05 ? 2000 : 20) }, (_, i) =>
        random() < 0.9 ? { key: `f${between(random, 0, 1e9)}`, grp: i % 16, text: "fuzz text", n: i } : fuzzValue(random, pool),
      );
    case "k":
      return random() < 0.9 ? between(random, 0, 50) : pick(random, NUMBERS);
    case "grp":
      return between(random, 0, 20);
    case "n":
    case "w":
      return between(random, -5, 5);
    default:
      return random() < 0.8 ? `f${between(random, 0, 1e9)} amber` : fuzzValue(random, pool);
  }
}

/** A JSON body text: mostly valid, sometimes broken in one of many ways. */
function jsonBody(random: Random, value: unknown): string | Buffer {
  const text = JSON.stringify(value) ?? "null";
  switch (between(random, 0, 40)) {
    case 0:
      return text.slice(0, between(random, 0, text.length));
    case 1:
      return `\ufeff${text}`;
    case 2:
      return Buffer.concat([
        Buffer.from(text.slice(0, text.length >> 1)),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from(text.slice(text.length >> 1)),
      ]);
    case 3:
      return `${"[".repeat(between(random, 500, 1500))}${"]".repeat(between(random, 0, 1500))}`;
    case 4:
      return `{"a":[${"0,".repeat(between(random, 90_000, 130_000))}0]}`;
    case 5:
      return `${text}${text}`;
    case 6:
      return "";
    case 7:
      return text.replace(/"/g, "'");
    default:
      return text;
  }
}

function queryRequest(random: Random, pool: FuzzPool): FuzzRequest {
  // Reads four times as often as writes, so the store stays small.
  const name = random() < 0.8 ? pick(random, READS) : pick(random, Object.keys(QUERIES));
  const params: Record<string, unknown> = {};
  for (const p of QUERIES[name]!) if (random() < 0.9) params[p] = random() < 0.85 ? plausible(random, p, pool) : fuzzValue(random, pool);
  if (random() < 0.1) params[pick(random, STRINGS)] = fuzzValue(random, pool);
  const value = random() < 0.05 ? fuzzValue(random, pool) : params;
  return {
    kind: "http",
    method: "POST",
    path: `/${name}`,
    headers: headers(random, "application/json"),
    body: jsonBody(random, value),
    label: name,
  };
}

function headers(random: Random, contentType: string): Record<string, string> {
  const h: Record<string, string> = {};
  const r = random();
  if (r < 0.85) h["content-type"] = contentType;
  else if (r < 0.95) h["content-type"] = pick(random, CONTENT_TYPES);
  if (random() < 0.03) h.origin = pick(random, ["http://evil.example", "null", "http://localhost:1", "file://"]);
  if (random() < 0.03) h.host = pick(random, ["evil.example", "localhost", "127.0.0.1:1", "[::1]", "a".repeat(300)]);
  if (random() < 0.03)
    h["x-api-key"] = pick(
      random,
      STRINGS.filter((s) => /^[\x20-\x7e]*$/.test(s)),
    );
  if (random() < 0.03) h.authorization = pick(random, ["Bearer", "Bearer x", "Basic Zm9vOmJhcg==", ""]);
  if (random() < 0.02) h["accept-encoding"] = "gzip, br";
  if (random() < 0.02) h["x-forwarded-for"] = "10.0.0.1";
  return h;
}

function toolData(random: Random, pool: FuzzPool): unknown {
  if (random() < 0.15) return fuzzValue(random, pool);
  const data: Record<string, unknown> = {};
  if (random() < 0.7) data.node_type = pick(random, TYPES);
  if (random() < 0.5) data.edge_label = pick(random, ["Link", "Nope", ""]);
  if (random() < 0.5) data.edge_type = pick(random, ["node", "vec", "x"]);
  if (random() < 0.3)
    data.filter = {
      properties: [
        [
          {
            key: pick(random, ["n", "grp", "key", "text", "label", "nope"]),
            operator: pick(random, ["==", ">=", "<", "!=", "~", ""]),
            value: fuzzValue(random, pool),
          },
        ],
      ],
      ...(random() < 0.3 ? { filter_traversals: [{ tool_name: pick(random, TOOLS), args: fuzzValue(random, pool) }] } : {}),
    };
  if (random() < 0.2) data.vector = plausible(random, "v", pool);
  if (random() < 0.2) data.query = pick(random, ["amber", "fuzz", "", "😀"]);
  if (random() < 0.2) data.k = plausible(random, "k", pool);
  if (random() < 0.2) data.properties = [pick(random, ["n", "grp", "key", "nope"])];
  if (random() < 0.1) data.label = pick(random, TYPES);
  return data;
}

function toolRequest(random: Random, pool: FuzzPool): FuzzRequest {
  const tool = random() < 0.15 ? "init" : pick(random, TOOLS);
  const body: Record<string, unknown> = {};
  if (tool !== "init" || random() < 0.2)
    body.connection_id = pool.connections.length > 0 && random() < 0.85 ? pick(random, pool.connections) : fuzzValue(random, pool);
  if (random() < 0.8) body.data = toolData(random, pool);
  if (random() < 0.3) body.range = { start: between(random, -2, 50), end: between(random, -2, 100) };
  if (random() < 0.1) body.drop = random() < 0.5;
  return {
    kind: "http",
    method: "POST",
    path: `/mcp/${tool}`,
    headers: headers(random, "application/json"),
    body: jsonBody(random, body),
    label: `/mcp/${tool}`,
  };
}

function rpcRequest(random: Random, pool: FuzzPool): FuzzRequest {
  const one = (): unknown => {
    const method = pick(random, RPC_METHODS);
    const message: Record<string, unknown> = { jsonrpc: random() < 0.95 ? "2.0" : pick(random, ["1.0", 2, null]), method };
    if (random() < 0.9) message.id = random() < 0.9 ? between(random, 0, 1e6) : fuzzValue(random, pool);
    if (method === "initialize" && random() < 0.8)
      message.params = {
        protocolVersion: pick(random, ["2025-06-18", "2025-03-26", "2024-11-05", "1999"]),
        capabilities: {},
        clientInfo: { name: "fuzz", version: "1" },
      };
    else if (method === "tools/call" && random() < 0.9)
      message.params = {
        name: random() < 0.1 ? fuzzValue(random, pool) : pick(random, TOOLS),
        arguments: random() < 0.8 ? { connection_id: pool.connections[0], data: toolData(random, pool) } : fuzzValue(random, pool),
      };
    else if (method === "resources/read") message.params = { uri: pick(random, ["schema://", "strand://schema", "", "x"]) };
    else if (random() < 0.5) message.params = fuzzValue(random, pool);
    return message;
  };
  const value = random() < 0.1 ? Array.from({ length: between(random, 0, 4) }, one) : one();
  const h = headers(random, "application/json");
  const r = random();
  if (r < 0.8) h.accept = "application/json, text/event-stream";
  else if (r < 0.9) h.accept = pick(random, ["application/json", "text/event-stream", "*/*", "text/html"]);
  if (random() < 0.2) h["mcp-protocol-version"] = pick(random, ["2025-06-18", "2025-03-26", "bogus"]);
  if (random() < 0.1)
    h["mcp-session-id"] = pick(
      random,
      STRINGS.filter((s) => /^[\x21-\x7e]+$/.test(s)),
    );
  return { kind: "http", method: "POST", path: "/mcp", headers: h, body: jsonBody(random, value), label: "/mcp" };
}

const PATHS = [
  "/health",
  "/introspect",
  "/metrics",
  "/explorer",
  "/explorer/",
  "/explorer/api/types",
  "/backup",
  "/mcp",
  "/",
  "//",
  "/AddItem/x",
  "/%2e%2e/",
  "/ByKey?key=a",
  "/health?x=1",
  "/nope",
  "/%ZZ",
  "/mcp/",
  "/mcp/init/x",
];
const METHODS = ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "POST", "TRACE", "PROPFIND"];

function otherRequest(random: Random, pool: FuzzPool): FuzzRequest {
  const method = pick(random, METHODS);
  let path = random() < 0.8 ? pick(random, PATHS) : `/${pick(random, Object.keys(QUERIES))}`;
  if (random() < 0.1) path = `/${"a".repeat(between(random, 1, 8000))}`;
  if (random() < 0.05) path = `/${encodeURIComponent(pick(random, STRINGS).replace(/[\ud800-\udfff]/g, "?"))}`;
  const h = headers(random, "application/json");
  if (method === "OPTIONS" && random() < 0.5) Object.assign(h, { origin: "http://evil.example", "access-control-request-method": "POST" });
  const body = method === "GET" || method === "HEAD" ? undefined : random() < 0.5 ? jsonBody(random, fuzzValue(random, pool)) : undefined;
  return { kind: "http", method, path, headers: h, ...(body === undefined ? {} : { body }), label: `${method} other` };
}

function rawRequest(random: Random): FuzzRequest {
  const end = "connection: close\r\n\r\n";
  const candidates = [
    () => `FOO@BAR / HTTP/1.1\r\nhost: x\r\n${end}`,
    () => `GET /h\u00e9alth HTTP/1.1\r\nhost: x\r\n${end}`,
    () => `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(between(random, 16_000, 40_000))}\r\n${end}`,
    () => `POST /AddItem HTTP/1.1\r\nhost: x\r\nexpect: bogus\r\ncontent-type: application/json\r\ncontent-length: 2\r\n${end}{}`,
    () => `POST /ByKey HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\ncontent-type: application/json\r\n${end}zz\r\n{}\r\n0\r\n\r\n`,
    () => `POST /ByKey HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\ncontent-type: application/json\r\n${end}{}`,
    () => `POST /ByKey HTTP/1.1\r\nhost: x\r\ncontent-length: -1\r\n${end}`,
    () => `GET / HTTP/9.9\r\nhost: x\r\n${end}`,
    () => `\u0000\u0001\u0002 garbage\r\n\r\n`,
    () => `GET /health HTTP/1.1\r\nhost: x\r\nbad header\r\n${end}`,
    () => `GET /health HTTP/1.1\r\nhost: x\r\nx: a\u0000b\r\n${end}`,
    () => `POST /ByKey HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n${end}2\r\n{}\r\n0\r\n\r\n`,
    () => `GET ${"/a".repeat(between(random, 1, 40_000))} HTTP/1.1\r\nhost: x\r\n${end}`,
  ];
  const index = between(random, 0, candidates.length);
  return { kind: "raw", bytes: Buffer.from(candidates[index]!(), "latin1"), label: `raw ${index}` };
}

export function nextRequest(random: Random, pool: FuzzPool): FuzzRequest {
  const r = random();
  if (r < 0.45) return queryRequest(random, pool);
  if (r < 0.7) return toolRequest(random, pool);
  if (r < 0.85) return rpcRequest(random, pool);
  if (r < 0.97) return otherRequest(random, pool);
  return rawRequest(random);
}
