// The one line `strand serve` prints when it cannot listen: what is wrong and how to pick
// another address, naming the process that holds the port when /proc tells (port-holder.ts).
import { portHolder, type PortHolder } from "./port-holder.js";

export function listenProblem(
  error: NodeJS.ErrnoException,
  host: string,
  port: number,
  holderOf: (port: number) => PortHolder | null = portHolder,
): string {
  const where = `${host}:${port}`;
  switch (error.code) {
    case "EADDRINUSE": {
      const holder = holderOf(port);
      const by = holder === null ? "" : ` by pid ${holder.pid}${holder.command === "" ? "" : ` (${holder.command})`}`;
      return `cannot listen on ${where}: the port is in use${by}; stop it, or pick another with --port <n> (--port 0 picks a free one)`;
    }
    case "EACCES":
      return `cannot listen on ${where}: not allowed (ports below 1024 need privileges); pick --port 1024 or above`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${where}: ${host} is not an address of this machine; pick one with --host (127.0.0.1, or 0.0.0.0 for all)`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}
