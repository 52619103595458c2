// DEFAULT NOW on an integer field (HelixDB schemas write `created_at: I64 DEFAULT NOW`): a record
// created without the field gets the time as epoch milliseconds, a number — through a query over
// HTTP, and through `strand import` — while a value that is given is kept as given.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentProgress } from "../core/progress.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { type HxApp, openHxApp } from "./support/hx-app.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const HX = `
N::Event { name: String, created_at: I64 DEFAULT NOW }

QUERY AddEvent(name: String) =>
    event <- AddN<Event>({name: name})
    RETURN event

QUERY AddEventAt(name: String, at: I64) =>
    event <- AddN<Event>({name: name, created_at: at})
    RETURN event

QUERY GetEvent(id: ID) =>
    event <- N<Event>(id)
    RETURN event
`;

interface Event {
  id: string;
  label: string;
  name: string;
  created_at: number;
}

let app: HxApp;
let work: string;
beforeAll(async () => {
  app = await openHxApp(HX);
  work = tempDir("strand-default-now-");
});
afterAll(async () => {
  await app.close();
  removeDir(work);
});

/** Asserts `value` is an integer from `before` to `after` (epoch milliseconds, not seconds). */
function expectMillisBetween(value: unknown, before: number, after: number): void {
  expect(Number.isInteger(value)).toBe(true);
  expect(value as number).toBeGreaterThanOrEqual(before);
  expect(value as number).toBeLessThanOrEqual(after);
}

describe("I64 DEFAULT NOW", () => {
  it("stores the creation time in epoch milliseconds when the field is not given, and reads it back the same", async () => {
    const before = Date.now();
    const added = await app.post("/AddEvent", { name: "launch" });
    const after = Date.now();
    expect(added.status).toBe(200);
    const event = (added.body as { event: Event }).event;
    expect(Object.keys(event)).toEqual(["id", "label", "name", "created_at"]);
    expect(event).toEqual({ id: event.id, label: "Event", name: "launch", created_at: event.created_at });
    expectMillisBetween(event.created_at, before, after);
    expect(await app.post("/GetEvent", { id: event.id })).toEqual({ status: 200, body: { event } });
  });

  it("keeps a value that is given", async () => {
    const added = await app.post("/AddEventAt", { name: "past", at: 5 });
    const id = (added.body as { event: Event }).event.id;
    expect(added).toEqual({ status: 200, body: { event: { id, label: "Event", name: "past", created_at: 5 } } });
  });

  it("gives an imported record without the field the import's time in epoch milliseconds", async () => {
    const file = path.join(work, "events.jsonl");
    fs.writeFileSync(
      file,
      `${JSON.stringify({ kind: "N", label: "Event", name: "imported" })}\n${JSON.stringify({ kind: "N", label: "Event", name: "dated", created_at: 7 })}\n`,
    );
    const before = Date.now();
    await importFiles(app.store, [importFileOf(file)], { skipBad: false, progress: silentProgress });
    const after = Date.now();
    const stored = app.store.read((db) => db.nodesByLabel("Event").filter((e) => e.name === "imported" || e.name === "dated"));
    expect(stored.map((e) => e.name)).toEqual(["imported", "dated"]);
    expectMillisBetween(stored[0]!.created_at, before, after);
    expect(stored[1]!.created_at).toBe(7);
  });
});
