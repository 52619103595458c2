// Connections are bounded per client, and a connection must send a request. Every connection
// holds a file descriptor, and the process has a fixed number (20,000 on our machines, 1,024 on
// many): one client that opened thousands of connections and sent nothing on them held them for
// good (Node closes a connection idle *between* requests, not one that never sent a byte), and
// every other client got resets for as long as it wanted. So:
//   - a client (its peer address, an IPv6 one by its /64: http/client-key.ts) with as many
//     connections open as it may gets 429 TOO_MANY_CONNECTIONS on a new one, which is then closed.
//     The refused connection is not read at all (its handle stops reading before Node's parser
//     sees a byte: pipelined requests on it once held 2.5 GB and stalled the front door for 30 s),
//     and it is kept 2 s for the client to read the answer; an address with REFUSED_LINGERING_MAX
//     refused connections kept already has a new one closed at once, unanswered (reconnecting in
//     a loop held 5,767 descriptors for an address allowed 50);
//   - a connection whose first request head is not complete within the headers timeout (Node's
//     own limit for a head once it has begun, 60 s by default) is closed.
// Behind a proxy every connection is the proxy's: raise the limit to the proxy's pool.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { clientKey } from "../http/client-key.js";
import { CountsByClient } from "../http/counts-by-client.js";

/** Connections one client may hold open at once, by default. */
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 1000;
export const MAX_MAX_CONNECTIONS_PER_CLIENT = 1_000_000;

/** How long a refused connection is kept for its client to read the 429 before it is closed. */
const REFUSED_LINGER_MS = 2000;
/** Refused connections of one address kept at once for their 429; past it they are closed unanswered. */
export const REFUSED_LINGERING_MAX = 16;

/** The libuv handle under a net.Socket (Node internals; test/connection-guard.test.ts fails if they change). */
interface HandleSocket extends Socket {
  _handle?: { readStop?: () => number } | null;
}

/**
 * Stops reading `socket` at its handle: Node's HTTP parser, which reads the handle itself, gets
 * nothing more. The handle's `reading` flag is left set on purpose: cleared, the stream would
 * start reading again the next time it is asked for data.
 */
function stopReading(socket: Socket): void {
  const handle = (socket as HandleSocket)._handle;
  if (handle?.readStop === undefined) {
    socket.destroy();
    return;
  }
  handle.readStop();
}

export interface ConnectionGuardOptions {
  readonly maxPerClient: number;
  /** A connection that completes no request head within this is closed. */
  readonly firstRequestMs: number;
  /** A connection was refused: `address` already holds `open` connections. */
  readonly refused: (address: string, open: number) => void;
}

/** The answer to a connection past its client's limit, written before any request is read. */
export function tooManyConnectionsAnswer(maxPerClient: number): string {
  const body = JSON.stringify({
    error: `this client has too many open connections to the server (limit ${maxPerClient} per client address); reuse connections (keep-alive) or close some`,
    code: "TOO_MANY_CONNECTIONS",
  });
  return (
    "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 1\r\nconnection: close\r\n" +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** Counts `socket` for `client` in `counts` until it closes. */
function countUntilClosed(counts: CountsByClient, client: string, socket: Socket): void {
  counts.add(client, 1);
  socket.once("close", () => counts.add(client, -1));
}

/**
 * Applies the limits to `server`'s connections. Returns whether a request's socket was refused
 * (not read, so none should come; one that does must not be served).
 */
export function guardConnections(server: Server, options: ConnectionGuardOptions): (socket: Socket) => boolean {
  const openByClient = new CountsByClient();
  const lingeringByClient = new CountsByClient();
  const refusedSockets = new WeakSet<Socket>();
  const firstRequestTimers = new WeakMap<Socket, NodeJS.Timeout>();
  const answer = tooManyConnectionsAnswer(options.maxPerClient);

  server.on("connection", (socket: Socket) => {
    const address = clientKey(socket.remoteAddress ?? "");
    const open = openByClient.of(address);
    if (open >= options.maxPerClient) {
      refusedSockets.add(socket);
      options.refused(address, open);
      if (lingeringByClient.of(address) >= REFUSED_LINGERING_MAX) {
        socket.destroy();
        return;
      }
      countUntilClosed(lingeringByClient, address, socket);
      stopReading(socket);
      socket.end(answer);
      setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
      return;
    }
    countUntilClosed(openByClient, address, socket);
    socket.once("close", () => clearTimeout(firstRequestTimers.get(socket)));
    const timer = setTimeout(() => socket.destroy(), options.firstRequestMs);
    timer.unref();
    firstRequestTimers.set(socket, timer);
  });
  // Node reads requests off the socket itself (no 'data' events): the first request clears the timer.
  server.prependListener("request", (req) => {
    const timer = firstRequestTimers.get(req.socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    firstRequestTimers.delete(req.socket);
  });
  return (socket) => refusedSockets.has(socket);
}
