// Who a request comes from, for the per-client cap on /mcp connections: the peer's address.
// Not the api key: a server has one key, shared by every client allowed in, so counting by key
// would let one of them use up every other's share. Not X-Forwarded-For either: any client can
// send one, and a new value per request would escape the cap.
import type { Context } from "hono";
import { LOCAL_CLIENT } from "./connections.js";
import { incomingOf } from "../http/request-header.js";

export function clientOf(c: Context): string {
  return incomingOf(c)?.remoteAddress ?? LOCAL_CLIENT;
}
