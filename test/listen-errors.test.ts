// The front door's listening server after an error (server/front-door/listen-errors.ts): before
// it listens, the error is the start's failure; after, a failed accept is logged (at most once a
// second, with a count) and the server goes on listening and answering.
import { createServer, connect } from "node:net";
import { describe, expect, it } from "vitest";
import { handleListenErrors } from "../server/front-door/listen-errors.js";

function errno(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe("handleListenErrors", () => {
  it("reports an error before listening as the failure to listen", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const server = createServer();
    const failures: string[] = [];
    handleListenErrors(server, { failed: (error) => failures.push(error.code ?? ""), log: () => {} });
    await new Promise<void>((resolve) => {
      server.once("error", () => resolve());
      server.listen(port, "127.0.0.1");
    });
    expect(failures).toEqual(["EADDRINUSE"]);
    await new Promise((resolve) => taken.close(resolve));
  });

  it("logs a failed accept after listening, at most once a second with a count, and keeps serving", async () => {
    const server = createServer((socket) => socket.end("hello"));
    const lines: string[] = [];
    let clock = 0;
    const failures: unknown[] = [];
    handleListenErrors(server, { failed: (error) => failures.push(error), log: (line) => lines.push(line), now: () => clock });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const emfile = errno("accept EMFILE", "EMFILE");
    server.emit("error", emfile);
    clock = 500;
    server.emit("error", emfile);
    server.emit("error", emfile);
    clock = 1500;
    server.emit("error", emfile);
    expect(failures).toEqual([]);
    expect(lines).toEqual([
      "the HTTP front door could not accept a connection (still listening): accept EMFILE",
      "the HTTP front door could not accept a connection (still listening): accept EMFILE (and 2 more since the last line)",
    ]);
    const port = (server.address() as { port: number }).port;
    const answer = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect(port, "127.0.0.1");
      socket.setEncoding("utf8").on("data", (d: string) => (text += d));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toBe("hello");
    await new Promise((resolve) => server.close(resolve));
  });
});
