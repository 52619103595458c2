// Pipelined requests of one connection reach the engine one at a time: each after the answer
// before it has left for the client (the socket's unsent bytes at most UNSENT_LIMIT), or the
// connection closed. Node parses every request of a pipelined chunk at once and buffers each
// answer until the client reads, so one connection sending 200 requests for a 7 MB record and
// reading nothing held 4 GB of answers (a fault campaign's find). Held here, a connection that
// does not read has at most one answer waiting. A client that waits for each answer, as nearly
// all do, finds the previous one already sent: its next request is not delayed.
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Unsent bytes on a connection after which its next request waits for the client to read. */
export const UNSENT_LIMIT = 1 << 20;

const lastTurn = new WeakMap<Socket, Promise<void>>();

/**
 * Resolves when every earlier answer on `socket` has left (or the connection closed). `res` is
 * this request's answer: the connection's next request waits for it in turn. Call in the order
 * the requests arrive.
 */
export function afterEarlierAnswers(socket: Socket, res: ServerResponse): Promise<void> {
  const before = lastTurn.get(socket) ?? Promise.resolve();
  lastTurn.set(
    socket,
    before.then(() => answerLeft(socket, res)),
  );
  return before;
}

function answerLeft(socket: Socket, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    // Each listener goes once it has served: a keep-alive connection answers many requests, and
    // listeners left on its socket would pile up until it closed.
    const drained = (): void => {
      socket.off("drain", drained);
      socket.off("close", drained);
      resolve();
    };
    const sent = (): void => {
      res.off("finish", sent);
      res.off("close", sent);
      if (socket.destroyed || socket.writableLength <= UNSENT_LIMIT) resolve();
      else {
        socket.on("drain", drained);
        socket.on("close", drained);
      }
    };
    if (res.writableFinished || res.destroyed) sent();
    else {
      res.on("finish", sent);
      res.on("close", sent);
    }
  });
}
