// Serves a Strand app over HTTP/1.1 with @hono/node-server. `close()` stops accepting connections,
// lets in-flight requests finish (so acknowledged writes are acknowledged), closes kept-alive
// connections as they fall idle (graceful-close.ts), then resolves; the caller closes the store
// afterwards. Requests Node's parser refuses get JSON errors too (client-error.ts).
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { appRouteNames, createApp, type AppOptions } from "./app.js";
import { type Logger, silentLogger } from "./observe/logger.js";
import { ServerMetrics } from "./observe/metrics.js";
import { observeRequests } from "./observe/request-observer.js";
import { answerClientErrors } from "./http/client-error.js";
import { gracefulCloser } from "./http/graceful-close.js";

export interface ServerOptions extends AppOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1 (local only); use 0.0.0.0 to listen on every interface. */
  host?: string | undefined;
  /** One line per request and the server's events (default: silent). */
  logger?: Logger | undefined;
  /** Keep request and store metrics and serve them at GET /metrics (default true). */
  keepMetrics?: boolean | undefined;
}

export interface RunningServer {
  port: number;
  host: string;
  /** Whether /explorer is served. */
  explorer: boolean;
  close(): Promise<void>;
}

export const DEFAULT_HOST = "127.0.0.1";

/** Whether a listen address reaches only this machine. */
export function isLoopbackAddress(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
const FORCE_CLOSE_AFTER_MS = 10_000;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const keyless = options.apiKey === undefined || options.apiKey === "";
  const store = options.store;
  const metrics = options.keepMetrics === false ? null : new ServerMetrics({ storeStats: store.stats?.bind(store) });
  const loopbackHostsOnly = options.loopbackHostsOnly ?? (keyless && isLoopbackAddress(host));
  const explorer = options.explorer ?? isLoopbackAddress(host);
  const app = createApp({ ...options, loopbackHostsOnly, metrics, explorer });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  observeRequests(server, { logger: options.logger ?? silentLogger(), metrics, names: appRouteNames(options) });
  answerClientErrors(server);
  const closeGracefully = gracefulCloser(server, FORCE_CLOSE_AFTER_MS);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    port,
    host,
    explorer,
    close(): Promise<void> {
      closing ??= closeGracefully();
      return closing;
    },
  };
}
