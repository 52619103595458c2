// Starts the front-door thread (worker.ts) and wires it to the engine side (engine.ts) on this,
// the main thread. Resolves once the front door listens; `close()` asks it to close gracefully
// (stop accepting, finish what is in flight, close idle connections) and ends the thread. A front
// door that fails afterwards (an unhandled error, an unexpected exit) leaves no process serving
// nothing: `onFatal` is told (by default the process exits with the message).
import { Worker } from "node:worker_threads";
import { useAnswerResponses } from "./answer-response.js";
import { type EngineApp, EngineSide } from "./engine.js";
import type { FrontDoorSettings, ToEngine, ToFrontDoor } from "./messages.js";
import { Outbox } from "./outbox.js";
import type { Logger } from "../observe/logger.js";
import type { RequestRecord } from "../observe/request-observer.js";

export interface FrontDoorOptions {
  settings: FrontDoorSettings;
  app: EngineApp;
  record: (record: RequestRecord) => void;
  commit: () => number | null;
  /** Where the engine side reports what failed while answering. */
  logger: Logger;
  onFatal?: ((message: string) => void) | undefined;
  /** The worker module to run (tests substitute one that fails); the built worker.js by default. */
  entry?: URL | undefined;
}

export interface RunningFrontDoor {
  port: number;
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

export function startFrontDoor(options: FrontDoorOptions): Promise<RunningFrontDoor> {
  useAnswerResponses();
  const worker = new Worker(options.entry ?? frontDoorEntry(), { workerData: options.settings });
  const outbox = new Outbox<ToFrontDoor>(worker);
  const post = (message: ToFrontDoor, transfer?: ArrayBuffer[]): void => outbox.push(message, transfer);
  const engine = new EngineSide({
    app: options.app,
    post,
    record: options.record,
    commit: options.commit,
    internalError: (stack, reqId) =>
      options.logger.error(reqId === undefined ? { stack } : { stack, reqId }, "internal error while answering a request"),
  });
  const onFatal = options.onFatal ?? exitWith;
  let state: "starting" | "running" | "closing" | "closed" = "starting";
  let closed: (() => void) | null = null;
  return new Promise<RunningFrontDoor>((resolve, reject) => {
    const failed = (message: string): void => {
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
            close: () =>
              new Promise<void>((done) => {
                if (state !== "running") return done();
                state = "closing";
                closed = () => {
                  state = "closed";
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
