// Who holds a TCP port, for the message when `strand serve` cannot listen. Linux only: the
// listening socket's inode from /proc/net/tcp{,6}, then the process whose fd links to it. Best
// effort: another user's process is not readable, and elsewhere there is no /proc (null then).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface PortHolder {
  pid: number;
  /** Its command line, cut to a readable length. */
  command: string;
}

const LISTEN = "0A";
const COMMAND_LENGTH = 120;

export function portHolder(port: number, proc = "/proc"): PortHolder | null {
  const inodes = listeningInodes(port, proc);
  if (inodes.size === 0) return null;
  for (const entry of safeList(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    for (const fd of safeList(`${proc}/${entry}/fd`)) {
      const link = safeLink(`${proc}/${entry}/fd/${fd}`);
      const inode = link === null ? null : /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode !== undefined && inode !== null && inodes.has(inode)) return { pid: Number(entry), command: commandOf(proc, entry) };
    }
  }
  return null;
}

/** Inodes of sockets listening on `port` (any address), from the kernel's socket tables. */
function listeningInodes(port: number, proc: string): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["net/tcp", "net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(`${proc}/${table}`, "utf8");
    } catch {
      continue;
    }
    // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ..."
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      if (fields[1]!.split(":")[1] === hexPort) inodes.add(fields[9]!);
    }
  }
  return inodes;
}

function commandOf(proc: string, pid: string): string {
  try {
    const text = readFileSync(`${proc}/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return text.length > COMMAND_LENGTH ? `${text.slice(0, COMMAND_LENGTH - 3)}...` : text;
  } catch {
    return "";
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safeLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
