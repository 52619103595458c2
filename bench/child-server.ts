// What the bench's peer servers do when run as a script (floor-server.ts, vector-floor-server.ts,
// sqlite-server.ts): say they are ready on stdout and over IPC, close on SIGTERM, SIGINT or when
// the parent goes, and exit 1 with the stack when starting fails.
import { pathToFileURL } from "node:url";

/** Prints `ready` (one JSON line, and over IPC when forked), then closes the server and exits on a stop signal. */
export function announceAndServe(ready: object, server: { close(): Promise<void> }): void {
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  process.send?.(ready);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.once("disconnect", stop);
}

/** Runs `main` when `moduleUrl` is the script node was started with. */
export function runAsScript(moduleUrl: string, main: () => Promise<void>): void {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

/** The value after `name` in `args` (`--path DIR`), if any. */
export function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
