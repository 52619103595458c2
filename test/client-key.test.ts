// One client per IPv4 address or IPv6 /64 (server/http/client-key.ts).
import { expect, it } from "vitest";
import { clientKey } from "../server/http/client-key.js";

it("is the IPv4 address, also IPv4-mapped; an IPv6 address's /64; anything else as given", () => {
  expect(
    [
      "10.0.0.7",
      "::ffff:10.0.0.7",
      "::FFFF:127.0.0.1",
      "2001:db8:aa:bb:1:2:3:4",
      "2001:0DB8:00aa:00bb:ffff:0:0:1",
      "2001:db8:aa:bb::9",
      "2001:db8::",
      "::1",
      "fe80::1%eth0",
      "::ffff:1.2.3.4:5",
      "64:ff9b::10.0.0.1",
      "",
      "local",
    ].map(clientKey),
  ).toEqual([
    "10.0.0.7",
    "10.0.0.7",
    "127.0.0.1",
    "2001:db8:aa:bb::/64",
    "2001:db8:aa:bb::/64",
    "2001:db8:aa:bb::/64",
    "2001:db8:0:0::/64",
    "0:0:0:0::/64",
    "fe80:0:0:0::/64",
    "::ffff:1.2.3.4:5",
    "64:ff9b:0:0::/64",
    "",
    "local",
  ]);
});
