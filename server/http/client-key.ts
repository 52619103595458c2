// Who a connection is, for the limits one client must not pass alone (connections per client,
// the engine's turns, /mcp connections and items): its peer address, never a header a client
// chooses. An IPv4 address is one client, written as IPv4 also when it arrives IPv4-mapped
// (`::ffff:10.0.0.7`, on a server listening on `::`). An IPv6 client is its /64 network: one host
// is given a whole /64 and can use any of its 2^64 addresses, so counting addresses would let it
// pass every limit by changing address (like most rate limiters, one /64 is one client).
import { isIPv4, isIPv6 } from "node:net";

/** The client key of a peer address: the IPv4 address, or `<first four IPv6 groups>::/64`; anything else as given. */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  if (isIPv4(address)) return address;
  const plain = address.split("%")[0]!; // a zone index (fe80::1%eth0) names the interface, not the host
  if (!isIPv6(plain)) return address;
  return `${ipv6Groups(plain).slice(0, 4).join(":")}::/64`;
}

/** The eight groups of an IPv6 address (lower case, no leading zeros); an embedded IPv4 tail counts as two. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.includes("::") ? address.split("::") : [address, null];
  const groupsOf = (part: string | undefined | null): string[] => {
    if (part === undefined || part === null || part === "") return [];
    return part.split(":").flatMap((group) => {
      if (!group.includes(".")) return [group];
      const [a, b, c, d] = group.split(".").map(Number);
      return [((a! << 8) | b!).toString(16), ((c! << 8) | d!).toString(16)];
    });
  };
  const front = groupsOf(head);
  const back = groupsOf(tail);
  const zeros = tail === null ? [] : Array<string>(8 - front.length - back.length).fill("0");
  return [...front, ...zeros, ...back].map((group) => Number.parseInt(group, 16).toString(16));
}
