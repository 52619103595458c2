// What the front door does with its listening server's errors. Before it listens, an error (the
// port in use, say) is the start's failure. After, Node reports a failed accept (out of file
// descriptors, say) as an error of the server too: that connection is lost, but the server goes
// on listening. Treated as a failure to listen, it would end the front-door thread and leave
// the process running with no listener and no word said. Logged at most once a second
// (rate-limited-log.ts), so a flood of them does not flood stderr.
import type { Server } from "node:net";
import { rateLimitedLog } from "./rate-limited-log.js";

export interface ListenErrorHandlers {
  /** The server could not start listening. */
  failed(error: NodeJS.ErrnoException): void;
  /** One line for the log. */
  log(line: string): void;
  /** Milliseconds now (tests pass a clock). */
  now?: () => number;
}

export function handleListenErrors(server: Server, handlers: ListenErrorHandlers): void {
  const log = rateLimitedLog(handlers.log, handlers.now);
  let listening = false;
  server.once("listening", () => {
    listening = true;
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (listening) log(`the HTTP front door could not accept a connection (still listening): ${error.message}`);
    else handlers.failed(error);
  });
}
