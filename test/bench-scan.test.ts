// The scan benchmark's correctness (bench/scan*.ts): the generated queries and the hand-written
// floor return exactly what the seeded data says, and the check that guards every timing run
// fails when the two differ. No timing here (that is `npm run bench`).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OptionsError, parseOptions } from "../bench/options.js";
import { seededRandom } from "../bench/random.js";
import { fillPeople, personProps, type PersonProps } from "../bench/scan-data.js";
import { openScanFloor, PROJECTION_LIMIT, type ScanFloor } from "../bench/scan-floor.js";
import { loadScanProject, type ScanProject } from "../bench/scan-project.js";
import { checkSame, FILTER_PARAMS, PROJECTION_PARAMS, runStrand, scanCases, type ScanCase } from "../bench/scan.js";
import { GraphStore } from "../runtime/graph-store.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const PEOPLE = 2_500; // more matches than PROJECTION_LIMIT, so the limit is exercised
const KNOWS = 3;
const SEED = 7;

/** The props fillPeople writes: the same PRNG stream, consumed in the same order. */
function expectedPeople(): PersonProps[] {
  const random = seededRandom(SEED);
  return Array.from({ length: PEOPLE }, (_, i) => personProps(i, random));
}

describe("scan bench", () => {
  let dir: string;
  let store: GraphStore;
  let floor: ScanFloor;
  let project: ScanProject;
  let cases: ScanCase[];
  const people = expectedPeople();

  beforeAll(async () => {
    dir = tempDir("strand-bench-scan-");
    project = await loadScanProject();
    store = GraphStore.open({ path: join(dir, "scan"), schema: project.schema });
    await fillPeople(store, PEOPLE, KNOWS, seededRandom(SEED));
    floor = openScanFloor(join(dir, "scan"));
    cases = scanCases(project, floor);
  });

  afterAll(async () => {
    await floor?.close();
    await store?.close();
    removeDir(dir);
  });

  test("FilterScan: every Person with age >= 50 in Lyon, as stored records in creation order", () => {
    const expected = people.filter((p) => p.age >= FILTER_PARAMS.min && p.city === FILTER_PARAMS.city);
    const result = runStrand(store, cases[0]!) as { people: Array<Record<string, unknown>> };
    expect(result.people.map(({ id: _id, ...rest }) => rest)).toEqual(expected.map((p) => ({ label: "Person", ...p })));
    expect(Object.keys(result.people[0]!)).toEqual(["id", "label", "name", "age", "city", "score"]);
    expect(floor.filterScan(FILTER_PARAMS.min, FILTER_PARAMS.city)).toEqual(result);
    expect(checkSame(store, cases[0]!)).toBe(expected.length);
  });

  test("ProjectPeople: the first 1000 people older than 50, renamed, with their Knows out-degree", () => {
    const matches = people.filter((p) => p.age > PROJECTION_PARAMS.min);
    expect(matches.length).toBeGreaterThan(PROJECTION_LIMIT);
    const expected = matches.slice(0, PROJECTION_LIMIT).map((p) => ({ name: p.name, years: p.age, friends: KNOWS, town: p.city }));
    const result = runStrand(store, cases[1]!);
    expect(result).toEqual({ people: expected });
    expect(floor.projectPeople(PROJECTION_PARAMS.min)).toEqual({ people: expected });
    expect(checkSame(store, cases[1]!)).toBe(PROJECTION_LIMIT);
  });

  test("the floor counts sealed adjacency chunks too", async () => {
    // 40 more Knows edges from person 0: one sealed chunk of 32 plus a tail of 11.
    const [first] = store.read((db) => db.nodesByLabel("Person").slice(0, 1));
    await store.write((db) => {
      for (let k = 0; k < 40; k++) db.addEdge("Knows", {}, first!.id, first!.id);
    });
    const result = floor.projectPeople(-1);
    expect(result.people[0]).toEqual({ name: "person 0", years: people[0]!.age, friends: KNOWS + 40, town: people[0]!.city });
    expect(checkSame(store, { ...cases[1]!, params: { min: 0 }, floor: () => floor.projectPeople(0) })).toBe(PROJECTION_LIMIT);
  });

  test("checkSame refuses to time a floor that returns something else", () => {
    const wrong: ScanCase = { ...cases[0]!, floor: () => ({ people: [] }) };
    expect(() => checkSame(store, wrong)).toThrow(/^FilterScan: Strand and the floor differ at character 11:/);
  });
});

describe("bench options for the scan", () => {
  test("defaults, --quick sizes and explicit flags", () => {
    const full = parseOptions([])!;
    expect([full.scanNodes, full.scanSamples, full.scanWarmup, full.skipScan]).toEqual([100_000, 20, 3, false]);
    const quick = parseOptions(["--quick"])!;
    expect([quick.scanNodes, quick.scanSamples, quick.scanWarmup]).toEqual([10_000, 10, 2]);
    const explicit = parseOptions(["--quick", "--scan-nodes", "500", "--scan-samples", "4", "--skip-scan"])!;
    expect([explicit.scanNodes, explicit.scanSamples, explicit.skipScan]).toEqual([500, 4, true]);
  });

  test("a size that is not a positive integer is refused", () => {
    expect(() => parseOptions(["--scan-nodes", "0"])).toThrow(OptionsError);
    expect(() => parseOptions(["--scan-samples", "2.5"])).toThrow('--scan-samples must be a positive integer, got "2.5"');
  });
});
