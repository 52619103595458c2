// Who a request comes from, for the per-client cap on /mcp connections: the peer's address (an
// IPv6 one by its /64, http/client-key.ts).
// Not the api key: a server has one key, shared by every client allowed in, so counting by key
// would let one of them use up every other's share. Not X-Forwarded-For either: any client can
// send one, and a new value per request would escape the cap.
import type { Context } from "hono";
import { LOCAL_CLIENT } from "./connections.js";
import { clientKey } from "../http/client-key.js";
import { incomingOf } from "../http/request-header.js";

export function clientOf(c: Context): string {
  const address = incomingOf(c)?.remoteAddress;
  return address === undefined ? LOCAL_CLIENT : clientKey(address);
}
