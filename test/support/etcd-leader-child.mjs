// A member that joins a group, leads it, prints "leading <epoch>" and then waits to be killed:
// the failover tests SIGKILL it so that its lease expires with nobody revoking it.
import { EtcdGroup } from "../../dist/server/cluster/etcd-group.js";

const [endpoints, group, id, ttl] = process.argv.slice(2);
const member = { id, url: `http://127.0.0.1/${id}` };
const g = await EtcdGroup.join({ endpoints: endpoints.split(","), group, member, leaseTtlSeconds: Number(ttl) });
const attempt = await g.tryLead(false);
process.stdout.write(attempt.won ? `leading ${attempt.leader.epoch}\n` : `not leading ${attempt.reason}\n`);
setInterval(() => {}, 1_000);
