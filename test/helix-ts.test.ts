// The unmodified `helix-ts` client (HelixDB v2's TypeScript SDK) against a real `strand serve`:
// `new HelixDB(url).query(name, params)` posts JSON to /<name> and returns the parsed reply.
import { HelixDB } from "helix-ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStrand, type StrandServer } from "./support/server.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let server: StrandServer;
let keyed: StrandServer;

beforeAll(async () => {
  [server, keyed] = await Promise.all([startStrand(), startStrand({ extraArgs: ["--api-key", "k3y"] })]);
});

afterAll(async () => {
  await Promise.all([server.stop(), keyed.stop()]);
});

interface User {
  id: string;
  label: string;
  handle: string;
  name: string;
  city: string;
  age: number;
  joined: string;
}

describe("helix-ts client", () => {
  it("writes and reads through HelixDB.query", async () => {
    const client = new HelixDB(server.url);
    const added = (await client.query("AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 })) as { user: User };
    const ada = added.user;
    expect(ada.id).toMatch(UUID);
    expect(ada.joined).toMatch(ISO_DATE);
    expect(added).toEqual({ user: { id: ada.id, label: "User", handle: "ada", name: "Ada", city: "London", age: 36, joined: ada.joined } });

    const grace = ((await client.query("AddUser", { handle: "grace", name: "Grace", city: "NYC", age: 45 })) as { user: User }).user;
    const follows = (await client.query("Follow", { from: ada.id, to: grace.id, weight: 2.5 })) as {
      follows: { id: string; since: string };
    };
    expect(follows).toEqual({
      follows: {
        id: follows.follows.id,
        label: "Follows",
        from_node: ada.id,
        to_node: grace.id,
        weight: 2.5,
        since: follows.follows.since,
      },
    });

    expect(await client.query("GetUser", { id: ada.id })).toEqual({ user: ada });
    expect(await client.query("Following", { id: ada.id })).toEqual({ users: [grace] });
    expect(await client.query("CountUsers", {})).toEqual({ total: 2 });
    expect(await client.query("UsersByCity", {})).toEqual({
      groups: [
        { city: "London", count: 1 },
        { city: "NYC", count: 1 },
      ],
    });
    expect(await client.query("CheapestRoute", { from: ada.id, to: grace.id })).toEqual({
      paths: [[[ada, grace], [follows.follows]]],
    });
    expect(await client.query("RenameUser", { id: ada.id, name: "Ada Lovelace" })).toEqual({ user: { ...ada, name: "Ada Lovelace" } });
  });

  it("receives errors as JSON bodies", async () => {
    const client = new HelixDB(server.url);
    expect(await client.query("GetUser", { id: "00000000-0000-7000-8000-000000000000" })).toEqual({
      error: "N::User with id '00000000-0000-7000-8000-000000000000' not found",
      code: "NOT_FOUND",
    });
    expect(await client.query("GetUser", {})).toEqual({ error: "missing required parameter 'id'", code: "MISSING_PARAMETER" });
    expect(await client.query("NoSuchQuery", {})).toEqual({ error: 'unknown query "NoSuchQuery"', code: "UNKNOWN_QUERY" });
  });

  it("the README's check for an error answer (helix-ts resolves errors as results)", async () => {
    const db = new HelixDB(server.url);
    const thrown = await (async () => {
      // As in README.md, "Call it from TypeScript with helix-ts".
      const answer = await db.query("UserByHandle", {});
      if (typeof answer.code === "string") throw new Error(`${answer.code}: ${answer.error}`);
      return answer;
    })().catch((error: Error) => error.message);
    expect(thrown).toBe("MISSING_PARAMETER: missing required parameter 'handle'");
  });

  it("sends the api key as x-api-key", async () => {
    expect(await new HelixDB(keyed.url, "k3y").query("CountUsers", {})).toEqual({ total: 0 });
    expect(await new HelixDB(keyed.url, "wrong").query("CountUsers", {})).toEqual({ error: "invalid api key", code: "UNAUTHORIZED" });
    expect(await new HelixDB(keyed.url).query("CountUsers", {})).toEqual({ error: "missing x-api-key header", code: "UNAUTHORIZED" });
  });

  it("reaches a tenant with its base URL at /t/<tenant>, unchanged", async () => {
    const acme = new HelixDB(`${keyed.url}/t/acme`, "k3y");
    const added = await acme.query("AddUser", { handle: "ada", name: "Ada", city: "Oslo", age: 36 });
    expect(added.user).toMatchObject({ handle: "ada", city: "Oslo" });
    expect(await acme.query("CountUsers", {})).toEqual({ total: 1 });
    expect(await new HelixDB(keyed.url, "k3y").query("CountUsers", {})).toEqual({ total: 0 });
    expect(await new HelixDB(`${keyed.url}/t/globex`, "k3y").query("CountUsers", {})).toEqual({
      error: 'no tenant "globex": a query that writes creates it (POST /t/globex/<Query>), or POST /tenants/globex',
      code: "UNKNOWN_TENANT",
    });
  });
});
