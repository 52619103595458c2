// Starts the HTTP doors and wires them to the engine (engine.ts) on this, the main thread.
// Resolves once the server listens; `close()` closes gracefully (stop accepting, finish what is
// in flight, close idle connections) and ends the front-door thread. A front-door thread that
// fails afterwards (an unhandled error, an unexpected exit) leaves no process serving without its
// guarantees: `onFatal` is told (by default the process exits with the message).
//
// By default (front-doors.ts) the front-door thread listens and every request crosses to this
// thread and back. With --front-door engine and Strand's native module, the engine's own door
// (door.ts) listens here, so a request costs no hop between threads, and the front-door thread
// stands by (standby.ts) to accept while the engine is held; without the module it falls back to
// the thread, said once at start.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { type StrandNative, strandNative } from "../native/native-module.js";
import type { Logger } from "../observe/logger.js";
import type { RequestRecord } from "../observe/request-observer.js";
import { useAnswerResponses } from "./answer-response.js";
import { budgetCell } from "./byte-budget.js";
import { openDoor } from "./door.js";
import type { FrontDoor } from "./front-doors.js";
import { type EngineApp, EngineSide } from "./engine.js";
import { EngineTurns } from "./engine-turns.js";
import { EngineHeartbeat, heartbeatCell } from "./heartbeat.js";
import { handleListenErrors } from "./listen-errors.js";
import type { FrontDoorSettings, FrontDoorWorkerData, StandbySettings, ToEngine, ToFrontDoor } from "./messages.js";
import { Outbox } from "./outbox.js";

export interface FrontDoorOptions {
  settings: FrontDoorSettings;
  app: EngineApp;
  record: (record: RequestRecord) => void;
  commit: () => number | null;
  /** Where the engine side reports what failed while answering, and the engine's door its lines. */
  logger: Logger;
  onFatal?: ((message: string) => void) | undefined;
  /** The worker module to run (tests substitute one that fails); the built worker.js by default. */
  entry?: URL | undefined;
  /** Which thread serves HTTP (front-doors.ts; default "thread"). */
  door?: FrontDoor | undefined;
  /** Strand's native module, or why it is missing (then the front-door thread listens); loaded by default. */
  native?: StrandNative | undefined;
}

export interface RunningFrontDoor {
  port: number;
  /** Whether the engine's thread serves HTTP itself (with a standby front door). */
  engineDoor: boolean;
  /** Times the standby took connections because the engine was held (0 when the thread listens). */
  standbyHolds(): number;
  close(): Promise<void>;
}

/**
 * The compiled worker module. Run from TypeScript sources (vitest), this module is a `.ts` file
 * the worker cannot load, so it takes the built twin under dist/ (`npm run build`).
 */
export function frontDoorEntry(here: string = import.meta.url): URL {
  return here.endsWith(".ts") ? new URL("../../dist/server/front-door/worker.js", here) : new URL("./worker.js", here);
}

function exitWith(message: string): void {
  process.stderr.write(`strand: ${message}; exiting\n`);
  process.exit(1);
}

/** The listening socket's descriptor (Node keeps it on the server's handle, on Unix). */
function listeningDescriptor(server: Server): number {
  const fd = (server as Server & { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== "number" || fd < 0) throw new Error("the listening socket has no descriptor to share with the standby front door");
  return fd;
}

export async function startFrontDoor(given: FrontDoorOptions): Promise<RunningFrontDoor> {
  useAnswerResponses();
  // Both doors count bodies and answers against the same budgets: a budget per door let a server
  // hold twice its limit (and the standby's connections escape the engine's).
  const options = { ...given, settings: { ...given.settings, budgetCells: { bodies: budgetCell(), answers: budgetCell() } } };
  const turns = new EngineTurns();
  const engineSide = (post: (message: ToFrontDoor, transfer?: ArrayBuffer[]) => void): EngineSide =>
    new EngineSide({
      app: options.app,
      post,
      record: options.record,
      commit: options.commit,
      internalError: (stack, reqId) =>
        options.logger.error(reqId === undefined ? { stack } : { stack, reqId }, "internal error while answering a request"),
      turns,
    });
  const native = (options.door ?? "thread") === "thread" ? null : (options.native ?? strandNative());
  if (native === null || "missing" in native) {
    if (native !== null)
      options.logger.warn(
        `every request crosses from the front-door thread to the engine's and back (about twice the CPU per request): the engine cannot share its socket with a standby front door without Strand's native module: ${native.missing}`,
      );
    const thread = await startThread(options, { ...options.settings, standby: null }, engineSide);
    return { port: thread.port, engineDoor: false, standbyHolds: () => 0, close: thread.close };
  }

  // The engine's door: its `post` and the engine side's are calls, in this thread.
  const server = createServer();
  // What the engine answers before the door exists (the pong to its health's first ping) waits for it.
  const early: ToFrontDoor[] = [];
  let toDoor = (message: ToFrontDoor): void => void early.push(message);
  const local = engineSide((message) => toDoor(message));
  const door = openDoor(server, {
    settings: options.settings,
    post: (message) => local.onMessage(message),
    record: options.record,
    logger: options.logger,
  });
  server.on("connection", () => turns.noteAccepted());
  toDoor = (message) => door.fromEngine(message);
  for (const message of early.splice(0)) door.fromEngine(message);
  try {
    await new Promise<void>((resolve, reject) => {
      handleListenErrors(server, {
        failed: reject,
        log: (line) => options.logger.error(line),
      });
      server.listen(options.settings.port, options.settings.host, resolve);
    });
  } catch (error) {
    await door.close(); // its /health timer would keep the process alive
    throw error;
  }
  const cell = heartbeatCell();
  const heartbeat = new EngineHeartbeat(cell);
  const standby: StandbySettings = { listenFd: listeningDescriptor(server), beats: cell };
  let thread: RunningThread;
  try {
    thread = await startThread(options, { ...options.settings, standby }, engineSide);
  } catch (error) {
    heartbeat.stop();
    await door.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    port: (server.address() as AddressInfo).port,
    engineDoor: true,
    standbyHolds: () => thread.holds,
    close: () => {
      // The standby stops taking the socket before the engine closes it: a descriptor closed here
      // could be reused by the time the standby duplicates its number.
      closing ??= Promise.all([thread.close(), thread.stoodDown.then(() => door.close())]).then(() => heartbeat.stop());
      return closing;
    },
  };
}

interface RunningThread {
  port: number;
  /** Times the thread, standing by, took connections (its "held" messages). */
  readonly holds: number;
  /** Resolves once the thread takes no more connections, after close() began. */
  stoodDown: Promise<void>;
  close(): Promise<void>;
}

/** Starts the front-door thread with `data`, wired to an engine side of its own. */
function startThread(
  options: FrontDoorOptions,
  data: FrontDoorWorkerData,
  engineSide: (post: (message: ToFrontDoor, transfer?: ArrayBuffer[]) => void) => EngineSide,
): Promise<RunningThread> {
  const worker = new Worker(options.entry ?? frontDoorEntry(), { workerData: data });
  const outbox = new Outbox<ToFrontDoor>(worker);
  const post = (message: ToFrontDoor, transfer?: ArrayBuffer[]): void => outbox.push(message, transfer);
  const engine = engineSide(post);
  const onFatal = options.onFatal ?? exitWith;
  let state: "starting" | "running" | "closing" | "closed" = "starting";
  let closed: (() => void) | null = null;
  let holds = 0;
  let stoodDown: () => void = () => {};
  const stood = new Promise<void>((resolve) => {
    stoodDown = resolve;
  });
  return new Promise<RunningThread>((resolve, reject) => {
    const failed = (message: string): void => {
      stoodDown();
      if (state === "starting") {
        state = "closed";
        void worker.terminate();
        reject(new Error(message));
      } else if (state !== "closed") {
        state = "closed";
        void worker.terminate();
        onFatal(message);
      }
    };
    worker.on("error", (error) => failed(`the HTTP front door failed: ${error.stack ?? error.message}`));
    worker.on("exit", (code) => {
      if (state === "closing" && closed !== null) closed();
      else failed(`the HTTP front door stopped unexpectedly (exit code ${code})`);
    });
    const onMessage = (message: ToEngine): void => {
      switch (message.t) {
        case "listening":
          state = "running";
          resolve({
            port: message.port,
            get holds() {
              return holds;
            },
            stoodDown: stood,
            close: () =>
              new Promise<void>((done) => {
                if (state !== "running") {
                  stoodDown();
                  return done();
                }
                state = "closing";
                closed = () => {
                  state = "closed";
                  stoodDown();
                  done();
                };
                post({ t: "close" });
              }),
          });
          return;
        case "listen-failed": {
          state = "closed";
          void worker.terminate();
          reject(Object.assign(new Error(message.message), { code: message.code }));
          return;
        }
        case "held":
          holds += 1;
          return;
        case "stood-down":
          stoodDown();
          return;
        case "closed":
          void worker.terminate();
          return;
        default:
          engine.onMessage(message);
      }
    };
    worker.on("message", (batch: ToEngine[]) => {
      for (const message of batch) onMessage(message);
    });
  });
}
