// An idle keep-alive connection is closed after the server's keepAliveTimeout. Node does it from
// the socket's timer, and after a pause of the process (SIGSTOP, a long GC, a frozen VM) the
// timers run before the pending I/O is read: a request a client sent on the connection during
// the pause was answered by a reset (issue 37 finding 6: queued requests on a paused leader got
// resets instead of 503 FENCED). With a listener for the server's 'timeout', Node leaves the
// decision here: it is taken one turn later, after the poll phase has read what arrived; a
// connection that received bytes meanwhile has a request to answer and stays.
import type { Server } from "node:http";
import type { Socket } from "node:net";

export function closeIdleAfterPendingReads(server: Server): void {
  server.on("timeout", (socket: Socket) => {
    const read = socket.bytesRead;
    setImmediate(() => {
      if (socket.destroyed || socket.bytesRead !== read) return;
      socket.destroy();
    });
  });
}
