// A connection's requests waiting for their answers are bounded. Node parses every request a
// client pipelines as soon as the bytes arrive and brakes only on answers it could not write
// yet; the front door holds each answer back until the one before it has left (answer-turns.ts),
// so that brake hardly ever held: one connection writing small requests as fast as it could
// (reading its answers or not) made the front door hold 1.3 million requests and 4.5 GB within
// 90 s, until its thread ran out of memory and the server exited.
//
// At PIPELINED_AT_MOST waiting, the connection is paused with Node's own brake (its `_paused`
// flag: Node pauses the parser once it has parsed the bytes at hand, and TCP holds the client
// back) and resumed when an answer ends. Node also resumes it whenever an answer is written, and
// then parses a whole read (64 KiB, up to ~1,600 small requests) before the brake holds again;
// so a connection with CLOSE_PAST requests waiting is closed: no client that waits for its
// answers, or pipelines a few at a time, comes near it, and the connection above is closed within
// a second, the server staying at about 170 MB. Node internals (`_paused`, `parser`):
// test/pipeline-limit.test.ts fails if they change.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Requests of one connection that may wait for their answers before it stops being read. */
export const PIPELINED_AT_MOST = 32;
/** Requests of one connection waiting for their answers past which it is closed. */
export const CLOSE_PAST = 256;

/** The parts of Node's HTTP server socket its pipelining brake uses (lib/_http_server.js). */
interface HttpSocket extends Socket {
  _paused?: boolean;
  parser?: { resume(): void } | null;
}

const waiting = new WeakMap<Socket, number>();

/**
 * Call for each request as it arrives (its 'request' event); `res` ending lets the connection go
 * on. Returns false when the connection was closed instead (nothing more is to be done for `req`);
 * `closed` is told, to log it.
 */
export function limitPipelining(
  req: IncomingMessage,
  res: ServerResponse,
  closed: (socket: Socket, waiting: number) => void,
  limit = PIPELINED_AT_MOST,
  closePast = CLOSE_PAST,
): boolean {
  const socket = req.socket as HttpSocket;
  const count = (waiting.get(socket) ?? 0) + 1;
  waiting.set(socket, count);
  if (count > closePast) {
    if (!socket.destroyed) closed(socket, count);
    socket.destroy();
    return false;
  }
  if (count >= limit && !socket._paused) {
    socket._paused = true;
    socket.pause();
  }
  res.once("close", () => {
    const left = (waiting.get(socket) ?? 1) - 1;
    waiting.set(socket, left);
    if (left < limit && socket._paused === true && !socket.destroyed) {
      socket._paused = false;
      socket.parser?.resume();
      socket.resume();
    }
  });
  return true;
}
