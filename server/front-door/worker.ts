// The front-door thread (a worker_threads worker started by start.ts), a door (door.ts) whose
// `post` crosses a MessagePort to the engine (engine.ts). Two ways to run, as workerData says:
// - listening (the default): this thread owns the socket and every request crosses to the engine
//   and back;
// - standby (--front-door engine): the engine serves HTTP on its own thread, and this thread
//   accepts on the engine's listening socket only while the engine is held (standby.ts), so
//   /health is answered and connections are taken while one request holds the engine for seconds.
//
// Why a thread at all: generated handlers and the runtime are synchronous over LMDB (one write
// transaction is one synchronous call), so a request that traverses 216,000 users or ingests
// 20,000 items holds the engine's thread for hundreds of milliseconds; meanwhile this thread
// goes on accepting connections, reading bodies and answering /health. A write is still answered
// only after its commit.
import { createServer } from "node:http";
import { type AddressInfo, Server as NetServer } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { strandNative } from "../native/native-module.js";
import { createLogger, fdStream } from "../observe/logger.js";
import { openDoor } from "./door.js";
import { handleListenErrors } from "./listen-errors.js";
import type { FrontDoorWorkerData, StandbySettings, ToEngine, ToFrontDoor } from "./messages.js";
import { Outbox } from "./outbox.js";
import { rateLimitedLog } from "./rate-limited-log.js";
import { StandbyWatch } from "./standby.js";

if (parentPort === null) throw new Error("server/front-door/worker.js runs as a worker thread (front-door/start.ts)");
const port = parentPort;
const settings = workerData as FrontDoorWorkerData;
// The server's level and form, written straight to stderr (logger.ts fdStream).
const logger = createLogger({ level: settings.logLevel, pretty: settings.logPretty, stream: fdStream(2) });

// One postMessage per turn of the event loop (outbox.ts). A request's record is queued where its
// response finishes and goes with the next batch, so it reaches the engine before any request
// that arrives after that (and /metrics counts every response finished before it was asked for).
const outbox = new Outbox<ToEngine>(port);
const post = (message: ToEngine, transfer?: ArrayBuffer[]): void => outbox.push(message, transfer);

const server = createServer();
const door = openDoor(server, {
  settings,
  post,
  record: (record) => outbox.later({ t: "record", record }),
  logger,
});

/** Stops taking connections for good (standby); set below. */
let standDown = (): void => {};

port.on("message", (batch: ToFrontDoor[]) => {
  for (const message of batch) {
    if (message.t === "close") {
      standDown();
      post({ t: "stood-down" });
      void door.close().then(() => post({ t: "closed" }));
    } else door.fromEngine(message);
  }
});

if (settings.standby === null) listen();
else stand(settings.standby);

function listen(): void {
  handleListenErrors(server, {
    failed: (error) => post({ t: "listen-failed", message: error.message, code: error.code }),
    // A failed accept loses a connection (no descriptors left, say): an error, not a client's doing.
    log: (line) => logger.error(line),
  });
  server.listen(settings.port, settings.host, () => {
    post({ t: "listening", port: (server.address() as AddressInfo).port });
  });
}

function stand(standby: StandbySettings): void {
  const loaded = strandNative();
  if ("missing" in loaded) throw new Error(`the standby front door needs Strand's native module: ${loaded.missing}`);
  const { native } = loaded;
  const log = rateLimitedLog((line) => logger.error(line));
  // Failed accepts, and a failed take: that hold is lost, the engine's own socket serves on.
  server.on("error", (error) => log(`the standby HTTP front door could not accept a connection: ${error.message}`));
  const watch = new StandbyWatch(standby.beats, {
    take: () => {
      post({ t: "held" });
      try {
        server.listen({ fd: native.duplicate(standby.listenFd) });
      } catch (error) {
        log(`the standby HTTP front door could not take the engine's socket: ${(error as Error).message}`);
      }
    },
    // net.Server's close: the listener only (http.Server's would also close idle connections,
    // resetting a request a client is sending on one).
    give: () => {
      if (server.listening) NetServer.prototype.close.call(server);
    },
  });
  // A connection taken while the engine was held ends after the first answer it gets once the
  // engine is back, so its client reconnects to the engine (idle ones end at the keep-alive timeout).
  server.prependListener("request", (_req, res) => {
    if (!watch.accepting) res.shouldKeepAlive = false;
  });
  standDown = () => watch.stop();
  watch.start();
  post({ t: "listening", port: settings.port });
}
