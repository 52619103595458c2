// The engine starts forwarded requests one per turn of the event loop (server/front-door/
// engine.ts), reading the messages that came meanwhile first: a request whose client went away
// before it started is never run. Started on arrival, 100 queued requests for a 27 MB answer each
// were all computed after their clients had gone, holding the engine for 70 s.
import { expect, it } from "vitest";
import { EngineSide } from "../server/front-door/engine.js";
import type { ToEngine, ToFrontDoor } from "../server/front-door/messages.js";

function request(id: number): ToEngine {
  return {
    t: "request",
    id,
    method: "GET",
    url: `http://127.0.0.1/q${id}`,
    rawHeaders: ["host", "127.0.0.1"],
    remoteAddress: "127.0.0.1",
    body: null,
    refusal: null,
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

it("starts requests in arrival order, one per turn, and drops one aborted before it started", async () => {
  const started: string[] = [];
  const posted: ToFrontDoor[] = [];
  const engine = new EngineSide({
    app: {
      fetch: (req: Request) => {
        started.push(new URL(req.url).pathname);
        return new Response("ok");
      },
    },
    post: (message) => posted.push(message),
    record: () => {},
    commit: () => null,
  });
  for (const id of [1, 2, 3, 4]) engine.onMessage(request(id));
  engine.onMessage({ t: "abort", id: 3 });
  expect(started).toEqual([]);
  await turn();
  expect(started).toEqual(["/q1"]);
  // Its client leaves while /q1 runs: /q2 is never started.
  engine.onMessage({ t: "abort", id: 2 });
  for (let i = 0; i < 5; i++) await turn();
  expect(started).toEqual(["/q1", "/q4"]);
  expect(posted.map((m) => (m.t === "head" ? [m.id, m.status, m.end] : m.t))).toEqual([
    [1, 200, true],
    [4, 200, true],
  ]);
});
