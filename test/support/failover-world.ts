// The world a failover scenario (test/failover-scenarios/*.txt) runs in: FailoverControllers on
// scripted nodes, one in-memory group (server/cluster/memory-group.ts) and a manual clock. Each
// command changes the world, lets every promise job run, and answers with what happened and
// the state after it. Nothing waits on real time or a network.
//
// Commands (ids name nodes; a node's url is http://<id>; durations: 500ms, 2s):
//   join <id>… [sync=N] [ttl=D] [check=D] [lag=D]   start these nodes' processes at once (settings
//                                     stick to a node; defaults sync=0 ttl=2s check=500ms lag=1s)
//   stop <id>                         stop the process (its lease is revoked)
//   crash <id>                        kill the process: no more calls; its lease lives until expired
//   applied <id> <seq>                the node holds `seq`; a replica's leader hears so (its log request)
//   pause <id>                        stop the node's process (SIGSTOP): its timers do not run
//   resume <id> [write=S] [acked-by=M@S]  continue it: first it answers the write S it committed, or hears
//                                     member M's log request (sent before the pause) holding S, then its due timers run
//   claim <id> <seq> [key=K] [sent=N] a log request to the leader claims to be member <id> holding <seq>,
//                                     with key K (default: none) after being sent up to N (default: nothing)
//   known <id> <epoch>                the highest epoch the node's data directory has been in
//   write <id> <seq> [timeout=D]      the node commits `seq` and waits for its acknowledgement
//   tick <D>                          time passes: due timers fire in order
//   expire <id>                       etcd expires the node's lease(s); a node cut off hears it when healed
//   lapse <id>                        etcd lets the node's lease(s) run out, the revoke (deleting their
//                                     keys) still pending: renewals fail, the keys stay until expire
//   lease-lost <id>                   the node's etcd client gives up on its lease (as etcd3 does after
//                                     2 TTLs without a renewal), cut off or not
//   partition <id> [hang]             cut the node off from etcd: its calls reject (hang: go unanswered)
//   heal <id>                         reconnect it: held calls go through, held watch events arrive
//   block <id> <op>                   hold back the node's calls of one Group operation (or `watch`)
//   unblock <id>                      let them through
//   reset-etcd                        etcd loses every key (leases live on)
//   etcd-put <key> <value>            write a key by hand;  etcd-del <key>: delete one
//   gate <id>                         until when the node's answers as leader may leave it (the front
//                                     door's lease gate, as the controller last set it)
//
// Output: one line per event, `@<ms> <id>…` — `<id>: <log line>` (its "failover: " prefix cut),
// `<id> > lead|follow|fence` (calls on the node; a fence's reason is the log line before it),
// `<id> write <seq>: <outcome>` — then the nodes' roles and etcd's keys.
import { ManualClock } from "../../server/cluster/manual-clock.js";
import { type Cut, type GroupOp, MemoryGroups } from "../../server/cluster/memory-group.js";
import { FailoverController, type FailoverNode } from "../../server/cluster/failover.js";
import type { GroupMember } from "../../server/cluster/group.js";
import { MEMBERS_PREFIX, parseInSync, parseLeader, parseMembers } from "../../server/cluster/group-keys.js";
import { memberKeyDigest } from "../../server/node/member-identity.js";
import { PausableClock } from "./pausable-clock.js";

/** A member's own key (server/node/member-identity.ts), which its log requests carry. */
const keyOf = (id: string): string => `key-of-${id}`;

interface Settings {
  sync: number;
  ttlMs: number;
  checkMs: number;
  lagMs: number;
}

const DEFAULTS: Settings = { sync: 0, ttlMs: 2_000, checkMs: 500, lagMs: 1_000 };
const LOG_PREFIX = "failover: ";

/** A node as its controller sees it: its position and epoch are scripted; what it is told is recorded. */
class ScriptedNode implements FailoverNode {
  applied = 0;
  known = 0;
  following: string | null = null;
  lastLog = "";

  constructor(
    readonly id: string,
    private readonly record: (line: string) => void,
  ) {}

  appliedSeq(): number {
    return this.applied;
  }
  knownEpoch(): number {
    return this.known;
  }
  async lead(epoch: number): Promise<void> {
    this.known = Math.max(this.known, epoch);
    this.following = null;
    this.record(`> lead ${epoch}`);
  }
  async follow(url: string, epoch: number): Promise<void> {
    this.known = Math.max(this.known, epoch);
    this.following = url;
    this.record(`> follow ${url} (epoch ${epoch})`);
  }
  fence(reason: string): void {
    this.following = null;
    // The controller logs the reason just before; only a different one is worth a line.
    this.record(this.lastLog === `${LOG_PREFIX}fenced: ${reason}` ? "> fence" : `> fence: ${reason}`);
  }
}

interface Process {
  state: "joining" | "running" | "stopped" | "crashed";
  controller: FailoverController | null;
}

interface Entry {
  readonly node: ScriptedNode;
  settings: Settings;
  process: Process | null;
  /** The node's own view of the clock: `pause` stops its timers, as SIGSTOP stops a process. */
  readonly clock: PausableClock;
  /** What its controller last told the lease gate (null: nothing yet). */
  leadUntil: number | null;
}

export class FailoverWorld {
  private readonly clock = new ManualClock();
  private readonly groups = new MemoryGroups();
  private readonly entries = new Map<string, Entry>();
  private events: string[] = [];

  /** Runs one command; returns its output block. */
  async run(command: string): Promise<string> {
    const [verb = "", ...args] = command.split(/\s+/);
    const words = args.filter((a) => !a.includes("="));
    const options = new Map(args.filter((a) => a.includes("=")).map((a) => a.split("=", 2) as [string, string]));
    await this.apply(verb, words, options);
    await settle();
    const out = [...this.events, this.nodesLine(), ...this.etcdLines()];
    this.events = [];
    return out.join("\n");
  }

  private async apply(verb: string, words: string[], options: Map<string, string>): Promise<void> {
    const [id = "", arg] = words;
    switch (verb) {
      case "join":
        for (const each of words) this.join(each, options);
        return;
      case "stop":
        return this.stop(id);
      case "crash":
        return this.crash(id);
      case "applied":
        return this.applied(id, count(arg));
      case "claim":
        return this.claim(id, count(arg), options);
      case "pause":
        this.entry(id).clock.pause();
        return;
      case "resume":
        return this.resume(id, options);
      case "known":
        this.entry(id).node.known = count(arg);
        return;
      case "write":
        return this.write(id, count(arg), duration(options.get("timeout") ?? "5s"));
      case "tick":
        return this.clock.advance(duration(id));
      case "expire":
        return this.groups.expire(id);
      case "lapse":
        return this.groups.lapse(id);
      case "lease-lost":
        return this.groups.leaseLost(id);
      case "partition":
        return this.groups.partition(id, cut(arg));
      case "heal":
        return this.groups.heal(id);
      case "block":
        return this.groups.block(id, op(arg));
      case "unblock":
        return this.groups.unblock(id);
      case "reset-etcd":
        return this.groups.etcd.deleteAll();
      case "etcd-put":
        return this.groups.etcd.put(id, words.slice(1).join(" "));
      case "etcd-del":
        return this.groups.etcd.delete(id);
      case "gate": {
        const until = this.entry(id).leadUntil;
        this.record(id, until === null || until === 0 ? "answers as leader: none may leave" : `answers as leader leave until @${until}`);
        return;
      }
      default:
        throw new Error(`unknown command '${verb}'`);
    }
  }

  private join(id: string, options: Map<string, string>): void {
    const entry = this.entry(id);
    if (entry.process !== null && (entry.process.state === "running" || entry.process.state === "joining"))
      throw new Error(`${id} is already running`);
    const s = entry.settings;
    entry.settings = {
      sync: count(options.get("sync") ?? String(s.sync)),
      ttlMs: duration(options.get("ttl") ?? `${s.ttlMs}ms`),
      checkMs: duration(options.get("check") ?? `${s.checkMs}ms`),
      lagMs: duration(options.get("lag") ?? `${s.lagMs}ms`),
    };
    const settings = entry.settings;
    const process: Process = { state: "joining", controller: null };
    entry.process = process;
    const member: GroupMember = { id, url: urlOf(id), keyDigest: memberKeyDigest(keyOf(id)) };
    const join = () => this.groups.join(member);
    // As `strand serve --etcd` does: join, then start the controller on that membership.
    void (async () => {
      const controller = new FailoverController(await join(), entry.node, {
        syncReplicas: settings.sync,
        lagTimeoutMs: settings.lagMs,
        checkEveryMs: settings.checkMs,
        leaseTtlMs: settings.ttlMs,
        rejoin: join,
        log: (line) => this.log(id, line),
        clock: entry.clock,
        leadUntil: (ms) => {
          entry.leadUntil = ms;
        },
      });
      if (process.state !== "joining") return;
      process.controller = controller;
      process.state = "running";
      await controller.start();
    })().catch((error: unknown) => this.record(id, `start failed: ${(error as Error).message}`));
  }

  private stop(id: string): void {
    const process = this.running(id);
    process.state = "stopped";
    process.controller?.stop().catch((error: unknown) => this.record(id, `stop failed: ${(error as Error).message}`));
  }

  private crash(id: string): void {
    const process = this.running(id);
    process.state = "crashed";
    this.groups.crash(id);
    // Only to end its timers: its membership is dead, so the stop reaches nothing.
    void process.controller?.stop();
  }

  private applied(id: string, seq: number): void {
    const node = this.entry(id).node;
    node.applied = seq;
    const leader = [...this.entries.values()].find((e) => node.following !== null && urlOf(e.node.id) === node.following);
    // What its log requests tell the leader: it was sent the entries, holds them, and is `id` (its key).
    leader?.process?.controller?.logSent(id, seq, keyOf(id));
    leader?.process?.controller?.replicaApplied(id, seq, keyOf(id));
  }

  /** The process runs again: first what it was doing (answering a write it committed), then its timers that came due. */
  private resume(id: string, options: Map<string, string>): void {
    const entry = this.entry(id);
    const seq = options.get("write");
    if (seq !== undefined) this.write(id, count(seq), duration(options.get("timeout") ?? "5s"));
    const acked = options.get("acked-by");
    if (acked !== undefined) {
      const [member, held] = acked.split("@");
      const controller = this.running(id).controller;
      controller?.logSent(member!, count(held!), keyOf(member!));
      controller?.replicaApplied(member!, count(held!), keyOf(member!));
    }
    entry.clock.resume();
  }

  /** A log request that is not (or not only) the member's own: a client with the replication key, say. */
  private claim(id: string, seq: number, options: Map<string, string>): void {
    const key = options.get("key");
    const leader = [...this.entries.values()].find((e) => e.process?.controller?.role === "leader");
    const sent = options.get("sent");
    if (sent !== undefined) leader?.process?.controller?.logSent(id, count(sent), key);
    leader?.process?.controller?.replicaApplied(id, seq, key);
  }

  private write(id: string, seq: number, timeoutMs: number): void {
    const entry = this.entry(id);
    const controller = this.running(id).controller;
    if (controller === null) throw new Error(`${id} has not started`);
    entry.node.applied = Math.max(entry.node.applied, seq);
    void controller.waitAcked(seq, timeoutMs).then((outcome) => this.record(id, `write ${seq}: ${outcome}`));
  }

  private log(id: string, line: string): void {
    this.entry(id).node.lastLog = line;
    this.record(id, line.startsWith(LOG_PREFIX) ? `: ${line.slice(LOG_PREFIX.length)}` : `: (unprefixed) ${line}`, "");
  }

  private record(id: string, what: string, gap = " "): void {
    this.events.push(`@${this.clock.now()} ${id}${gap}${what}`);
  }

  private entry(id: string): Entry {
    if (!/^[a-z][a-z0-9]*$/.test(id)) throw new Error(`bad node id '${id}'`);
    let entry = this.entries.get(id);
    if (entry === undefined) {
      entry = {
        node: new ScriptedNode(id, (what) => this.record(id, what)),
        settings: { ...DEFAULTS },
        process: null,
        clock: new PausableClock(this.clock),
        leadUntil: null,
      };
      this.entries.set(id, entry);
    }
    return entry;
  }

  private running(id: string): Process {
    const process = this.entry(id).process;
    if (process === null || (process.state !== "running" && process.state !== "joining")) throw new Error(`${id} is not running`);
    return process;
  }

  private nodesLine(): string {
    const shown: string[] = [];
    for (const [id, entry] of this.entries) {
      const process = entry.process;
      if (process === null) continue;
      const controller = process.controller;
      if (process.state !== "running" || controller === null) {
        shown.push(`${id} ${process.state}`);
        continue;
      }
      const role = controller.role;
      const epoch = controller.leaderEpoch > 0 && role !== "starting" ? `@${controller.leaderEpoch}` : "";
      const isr = role === "leader" && entry.settings.sync > 0 ? ` isr[${controller.inSync.join(" ")}]` : "";
      shown.push(`${id} ${role}${epoch}${isr}`);
    }
    return `nodes: ${shown.join(", ") || "-"}`;
  }

  private etcdLines(): string[] {
    const etcd = this.groups.etcd;
    const value = (key: string): string | null => etcd.get(key)?.value ?? null;
    const leader = parseLeader(value("leader"));
    const inSync = parseInSync(value("in_sync"));
    const members = parseMembers(etcd.values(MEMBERS_PREFIX));
    const leaderText = leader === null ? "-" : `${leader.id}@${leader.epoch}${leader.url === urlOf(leader.id) ? "" : ` (${leader.url})`}`;
    const inSyncText = inSync === null ? "-" : `[${inSync.ids.join(" ")}] by ${inSync.leader ?? "?"}@${inSync.epoch}`;
    const membersText = members.map((m) => `${m.id} ${m.role} ${m.applied}`).join(", ") || "-";
    return [
      `etcd: epoch ${value("epoch") ?? "-"}, leader ${leaderText}, in_sync ${inSyncText}`,
      `etcd members: ${membersText}; leases: ${this.groups.leaseHolders().join(" ") || "-"}`,
    ];
  }
}

/** Lets every queued promise job run (no timer of this world is real: only jobs are pending). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const OPS: readonly GroupOp[] = [
  "join",
  "leader",
  "epoch",
  "tryLead",
  "resign",
  "stillLeads",
  "publishInSync",
  "inSync",
  "report",
  "members",
  "watchLeader",
  "close",
  "watch",
];

function op(text: string | undefined): GroupOp {
  const found = OPS.find((o) => o === text);
  if (found === undefined) throw new Error(`expected one of ${OPS.join(" ")}, got '${text}'`);
  return found;
}

function cut(text: string | undefined): Cut {
  if (text === undefined) return "reject";
  if (text !== "hang") throw new Error(`partition takes 'hang' or nothing, got '${text}'`);
  return text;
}

function urlOf(id: string): string {
  return `http://${id}`;
}

function count(text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || !Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got '${text}'`);
  return n;
}

function duration(text: string): number {
  const match = /^(\d+)(ms|s)$/.exec(text);
  if (match === null) throw new Error(`expected a duration like 500ms or 2s, got '${text}'`);
  return Number(match[1]) * (match[2] === "s" ? 1_000 : 1);
}
