// `strand serve` cannot listen: one line saying why, who holds the port (from /proc), and how to pick another.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listenProblem } from "../cli/commands/listen-problem.js";
import { portHolder } from "../cli/commands/port-holder.js";
import { tempDir } from "./support/server.js";

const errno = (code: string, message = `listen ${code}`): NodeJS.ErrnoException => Object.assign(new Error(message), { code });

/** A /proc with one process (pid 4242) holding socket inode 777 that listens on `port`. */
function fakeProc(port: number): string {
  const proc = tempDir("strand-fake-proc-");
  mkdirSync(join(proc, "net"));
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
  writeFileSync(
    join(proc, "net", "tcp"),
    `${header}   0: 0100007F:${hex} 00000000:0000 01 00000000:00000000 00:00000000 00000000     0        0 555 1\n` +
      `   1: 0100007F:${hex} 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1\n`,
  );
  writeFileSync(join(proc, "net", "tcp6"), header);
  for (const [pid, inode] of [
    ["17", "555"],
    ["4242", "777"],
  ] as const) {
    mkdirSync(join(proc, pid, "fd"), { recursive: true });
    symlinkSync(`socket:[${inode}]`, join(proc, pid, "fd", "3"));
    writeFileSync(join(proc, pid, "cmdline"), `node\0server.js\0--port\0${port}\0`);
  }
  mkdirSync(join(proc, "self"));
  return proc;
}

describe("strand serve cannot listen", () => {
  it("finds the process listening on a port, not one merely connected to it", () => {
    const proc = fakeProc(6969);
    expect(portHolder(6969, proc)).toEqual({ pid: 4242, command: "node server.js --port 6969" });
    expect(portHolder(7000, proc)).toBeNull();
    expect(portHolder(6969, join(proc, "missing"))).toBeNull();
  });

  it("says why in one line, with the way out", () => {
    const holder = () => ({ pid: 4242, command: "node server.js" });
    const none = () => null;
    expect(listenProblem(errno("EADDRINUSE"), "127.0.0.1", 6969, holder)).toBe(
      "cannot listen on 127.0.0.1:6969: the port is in use by pid 4242 (node server.js); stop it, or pick another with --port <n> (--port 0 picks a free one)",
    );
    expect(listenProblem(errno("EADDRINUSE"), "127.0.0.1", 6969, none)).toBe(
      "cannot listen on 127.0.0.1:6969: the port is in use; stop it, or pick another with --port <n> (--port 0 picks a free one)",
    );
    expect(listenProblem(errno("EACCES"), "0.0.0.0", 80, none)).toBe(
      "cannot listen on 0.0.0.0:80: not allowed (ports below 1024 need privileges); pick --port 1024 or above",
    );
    expect(listenProblem(errno("EADDRNOTAVAIL"), "10.9.9.9", 6969, none)).toBe(
      "cannot listen on 10.9.9.9:6969: 10.9.9.9 is not an address of this machine; pick one with --host (127.0.0.1, or 0.0.0.0 for all)",
    );
  });
});
