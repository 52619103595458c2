// One local etcd member for the replication bench's synchronous group (Debian's etcd-server):
// free loopback ports, a temp data dir, stopped with the bench's other children. Null when no
// etcd binary is installed (the bench then says so and leaves the sync runs out).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { tempDir, trackChild } from "./cleanup.js";

const BINARY = [process.env.STRAND_ETCD_BINARY, "/usr/bin/etcd", "/usr/local/bin/etcd"].find(
  (p): p is string => p !== undefined && p !== "" && existsSync(p),
);

/** A port nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** The member's client URL once it answers /health; null without an etcd binary. */
export async function startBenchEtcd(): Promise<string | null> {
  if (BINARY === undefined) return null;
  const [client, peer] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${client}`;
  const child = spawn(
    BINARY,
    [
      "--data-dir",
      join(tempDir("strand-bench-etcd-"), "member"),
      "--listen-client-urls",
      url,
      "--advertise-client-urls",
      url,
      "--listen-peer-urls",
      `http://127.0.0.1:${peer}`,
      "--initial-advertise-peer-urls",
      `http://127.0.0.1:${peer}`,
      "--initial-cluster",
      `default=http://127.0.0.1:${peer}`,
    ],
    { stdio: "ignore" },
  );
  trackChild(child);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return url;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the bench's etcd did not answer /health within 30 s");
}
