// The engine starts forwarded requests one per turn of the event loop (server/front-door/
// engine.ts; one that finds it idle right after its batch), reading the messages that came meanwhile first: a request whose client went away
// before it started is never run. Started on arrival, 100 queued requests for a 27 MB answer each
// were all computed after their clients had gone, holding the engine for 70 s. Clients (peer
// addresses) take turns, so one client's queue does not hold back another's requests.
import { expect, it } from "vitest";
import { EngineSide } from "../server/front-door/engine.js";
import { EngineTurns } from "../server/front-door/engine-turns.js";
import type { ToEngine, ToFrontDoor } from "../server/front-door/messages.js";

function request(id: number, remoteAddress: string | undefined = "127.0.0.1", path = `/q${id}`): ToEngine {
  return {
    t: "request",
    id,
    method: "GET",
    url: `http://127.0.0.1${path}`,
    rawHeaders: ["host", "127.0.0.1"],
    remoteAddress,
    reqId: `req-${id}`,
    body: null,
    refusal: null,
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An engine whose app records the paths it starts, and what it posts to the front door. */
function recordingEngine(turns?: EngineTurns): { engine: EngineSide; started: string[]; posted: ToFrontDoor[]; internalErrors: string[] } {
  const started: string[] = [];
  const posted: ToFrontDoor[] = [];
  const internalErrors: string[] = [];
  const engine = new EngineSide({
    app: {
      fetch: (req: Request) => {
        const path = new URL(req.url).pathname;
        started.push(path);
        if (path === "/broken") throw new Error("the app broke");
        return new Response("ok");
      },
    },
    post: (message) => posted.push(message),
    record: () => {},
    commit: () => null,
    internalError: (stack, reqId) => internalErrors.push(`${reqId} ${stack}`),
    turns,
  });
  return { engine, started, posted, internalErrors };
}

it("starts one request of each client in turn, in the order the clients came", async () => {
  const { engine, started } = recordingEngine();
  for (const id of [1, 2, 3, 4]) engine.onMessage(request(id, "10.0.0.1"));
  engine.onMessage(request(5, "10.0.0.2"));
  engine.onMessage(request(6, "::1"));
  engine.onMessage(request(7, "10.0.0.2"));
  engine.onMessage(request(8, undefined));
  // Its client leaves: /q3 is dropped and the others keep their turns.
  engine.onMessage({ t: "abort", id: 3 });
  for (let i = 0; i < 12; i++) await turn();
  expect(started).toEqual(["/q1", "/q5", "/q6", "/q8", "/q2", "/q7", "/q4"]);
  // A client that comes later queues behind the clients waiting then, not behind their requests.
  for (const id of [11, 12, 13]) engine.onMessage(request(id, "10.0.0.1"));
  engine.onMessage(request(14, "10.0.0.3"));
  for (let i = 0; i < 8; i++) await turn();
  expect(started.slice(7)).toEqual(["/q11", "/q14", "/q12", "/q13"]);
});

it("takes an IPv6 client's /64 as one client, and an IPv4-mapped address as its IPv4 one", async () => {
  const { engine, started } = recordingEngine();
  engine.onMessage(request(1, "2001:db8:1:2::a"));
  engine.onMessage(request(2, "2001:db8:1:2::b"));
  engine.onMessage(request(3, "2001:db8:1:3::a"));
  engine.onMessage(request(4, "10.0.0.5"));
  engine.onMessage(request(5, "::ffff:10.0.0.5"));
  engine.onMessage(request(6, "10.0.0.6"));
  for (let i = 0; i < 10; i++) await turn();
  expect(started).toEqual(["/q1", "/q3", "/q4", "/q6", "/q2", "/q5"]);
});

it("starts requests in arrival order, one per turn, and drops one aborted before it started", async () => {
  const { engine, started, posted } = recordingEngine();
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

it("starts a request at the end of the turn its batch is read in (the check phase), the next one a turn later", async () => {
  const { engine, started } = recordingEngine();
  engine.onMessage(request(1));
  engine.onMessage(request(2));
  await Promise.resolve();
  expect(started).toEqual([]);
  await turn();
  expect(started).toEqual(["/q1"]);
  await turn();
  expect(started).toEqual(["/q1", "/q2"]);
});

it("answers 500 INTERNAL when the app throws, and reports the stack to the server's log", async () => {
  const { engine, posted, internalErrors } = recordingEngine();
  engine.onMessage(request(1, "127.0.0.1", "/broken"));
  for (let i = 0; i < 4; i++) await turn();
  expect(posted).toEqual([
    {
      t: "head",
      id: 1,
      status: 500,
      headers: { "content-type": "application/json" },
      body: [new TextEncoder().encode('{"error":"internal error","code":"INTERNAL"}')],
      end: true,
    },
  ]);
  expect(internalErrors).toHaveLength(1);
  // With the request's id, for its log line (front-door/start.ts).
  expect(internalErrors[0]!.startsWith("req-1 Error: the app broke\n    at ")).toBe(true);
});

it("requests read one by one in a turn (each connection's callback) take turns by client from the turn's end", async () => {
  const { engine, started } = recordingEngine();
  // The engine's own door reads each connection in a callback of its own: microtasks run between them.
  for (const [id, address] of [
    [1, "10.0.0.1"],
    [2, "10.0.0.1"],
    [3, "10.0.0.1"],
    [4, "10.0.0.2"],
  ] as const) {
    engine.onMessage(request(id, address));
    await Promise.resolve();
  }
  expect(started).toEqual([]);
  // Each started as it was read, /q4 would have waited for /q2 and /q3 (16 scans in the bench, not one).
  for (let i = 0; i < 4; i++) await turn();
  expect(started).toEqual(["/q1", "/q4", "/q2", "/q3"]);
});

it("waits one turn more after a connection was accepted, so what it sent is read before a request starts; once per start", async () => {
  const turns = new EngineTurns();
  const { engine, started } = recordingEngine(turns);
  turns.noteAccepted();
  engine.onMessage(request(1, "10.0.0.1"));
  await turn();
  expect(started).toEqual([]);
  // Read in the next turn's poll, before the check phase starts anything.
  engine.onMessage(request(2, "10.0.0.2"));
  await turn();
  expect(started).toEqual(["/q1"]);
  // Accepted after that start: the next one waits a turn too, but not a second one for a second accept.
  turns.noteAccepted();
  await turn();
  expect(started).toEqual(["/q1"]);
  turns.noteAccepted();
  await turn();
  expect(started).toEqual(["/q1", "/q2"]);
});
