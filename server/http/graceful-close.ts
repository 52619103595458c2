// Closing a server under keep-alive load: stop accepting connections, let the requests in flight
// finish, and close every connection as soon as it has no request: idle ones at once, busy ones
// right after their response (which says `connection: close`, so the client does not send another
// on it). Without that, a kept-alive socket that finished its request after close() began stayed
// open until the force-close timer, and requests sent on it meanwhile were reset then.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Tracks `server`'s requests; the returned function closes it gracefully (force-closing what is left after `forceAfterMs`). */
export function gracefulCloser(server: Server, forceAfterMs: number): () => Promise<void> {
  const inFlight = new Map<Socket, ServerResponse>();
  let closing = false;
  const endAfterResponse = (socket: Socket, response: ServerResponse): void => {
    if (!response.headersSent) response.setHeader("connection", "close");
    response.once("close", () => socket.end());
  };
  // Before the app's listener, so a response it writes at once already carries the header.
  server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    inFlight.set(socket, response);
    response.once("close", () => {
      if (inFlight.get(socket) === response) inFlight.delete(socket);
    });
    if (closing) endAfterResponse(socket, response);
  });
  return () =>
    new Promise<void>((resolve, reject) => {
      closing = true;
      for (const [socket, response] of inFlight) endAfterResponse(socket, response);
      const force = setTimeout(() => server.closeAllConnections(), forceAfterMs);
      force.unref();
      server.close((error) => {
        clearTimeout(force);
        // A standby door not accepting now (front-door/standby.ts) has no listener to close; Node
        // still calls back only once its connections are gone.
        if (error !== undefined && (error as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING") reject(error);
        else resolve();
      });
      server.closeIdleConnections();
    });
}
