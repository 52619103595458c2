// One connection pipelining requests faster than they are answered (server/front-door/
// pipeline-limit.ts): past the limit the server stops reading it, so it holds at most the limit
// plus the requests already in the bytes at hand, not every request the client can write; as
// answers end, reading resumes, and every request is answered, in order. Without the limit the
// server took all 3,000 of them at once (a campaign's client held 1.3 million and crashed it).
// A connection that gets past the close limit all the same is closed.
import { createServer, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { limitPipelining, PIPELINED_AT_MOST } from "../server/front-door/pipeline-limit.js";

const REQUESTS = 3000;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

it("stops reading a connection past the limit and answers every request, in order, as answers end", async () => {
  const held: ServerResponse[] = [];
  let seen = 0;
  let answering = false;
  const answer = (res: ServerResponse, n: number): void => void res.end(`${n}\n`);
  const server = createServer((req, res) => {
    limitPipelining(req, res, () => {
      throw new Error("not closed: the brake holds it");
    });
    const n = Number(req.url!.slice(1));
    seen++;
    if (answering) answer(res, n);
    else held.push(Object.assign(res, { n }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;

  const socket = connect(port, "127.0.0.1");
  closers.push(async () => void socket.destroy());
  let received = "";
  socket.setEncoding("utf8").on("data", (d: string) => (received += d));
  // 1 KiB each: 3,000 requests are far more than one read of the socket.
  const pad = "p".repeat(1000);
  for (let i = 0; i < REQUESTS; i++) socket.write(`GET /${i} HTTP/1.1\r\nHost: a\r\nX-Pad: ${pad}\r\n\r\n`);
  await sleep(500);
  // The limit, plus what one read of the socket held (64 KiB: about 60 of these).
  expect(seen).toBeGreaterThanOrEqual(PIPELINED_AT_MOST);
  expect(seen).toBeLessThan(PIPELINED_AT_MOST + 200);

  answering = true;
  for (const res of held.splice(0)) answer(res, (res as ServerResponse & { n: number }).n);
  for (let i = 0; i < 200 && seen < REQUESTS; i++) await sleep(25);
  expect(seen).toBe(REQUESTS);
  for (let i = 0; i < 200 && received.split("HTTP/1.1 200 OK").length - 1 < REQUESTS; i++) await sleep(25);
  const bodies = received
    .split("\r\n\r\n")
    .slice(1)
    .map((part) => part.split("\n")[0]);
  expect(bodies.map(Number)).toEqual(Array.from({ length: REQUESTS }, (_, i) => i));
}, 30_000);

it("closes a connection with more requests waiting than the close limit", async () => {
  let forwarded = 0;
  const closed: number[] = [];
  const server = createServer((req, res) => {
    // No pause below 1,000: the close limit (40) is what holds.
    if (limitPipelining(req, res, (_, waiting) => closed.push(waiting), 1000, 40)) forwarded++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;
  const socket = connect(port, "127.0.0.1");
  closers.push(async () => void socket.destroy());
  const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("error", () => {});
  for (let i = 0; i < 100; i++) socket.write(`GET /${i} HTTP/1.1\r\nHost: a\r\n\r\n`);
  await ended;
  expect({ forwarded, closed }).toEqual({ forwarded: 40, closed: [41] });
});
