// SearchV and AddV over HTTP: `strand serve bench/vector-project` on the directory the in-process
// run filled (the same `V::Vec` vectors) against the vector floor (vector-floor-server.ts: raw
// hnswlib on the same vectors, and a durable lmdb put + HNSW add), each in its own process, with
// autocannon in a third (load.ts) through http-bench.ts's alternating rounds.
//   - POST /SearchVec {"v"} vs /floor/search: query bodies rotate over the fixture's queries;
//     recall@k over HTTP is measured first, one request per query and side.
//   - POST /AddEmb {"v", "n"} vs /floor/add: acknowledged (flushed) inserts of dim-384 unit vectors.
import { fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stopChild, trackChild } from "./cleanup.js";
import { compareRoutes, type Comparison } from "./http-bench.js";
import { seededRandom } from "./random.js";
import { captureOutput, REPO_ROOT, startStrand, waitFor, type ChildServer } from "./servers.js";
import { recallAtK, unitVectors, vectorAt } from "./vector-data.js";
import { VECTOR_PROJECT } from "./vector-project.js";
import type { RawIndex, VectorFixture } from "./vector.js";

const FLOOR_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "vector-floor-server.js");

export interface VectorHttpSettings {
  /** The store directory the in-process run filled and closed. */
  strandDir: string;
  /** Where the raw index file and the floor's lmdb go. */
  workDir: string;
  fixture: VectorFixture;
  /** The raw index of the in-process run (written to a file for the floor). */
  raw: RawIndex;
  /** The floor searches at this ef (Strand's default, so both sides find the same neighbours). */
  ef: number;
  addDim: number;
  /** Distinct AddV bodies per run (they repeat after that; duplicates are fine for AddV). */
  addPool: number;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  profileDir: string | null;
  seed: number;
  log: (line: string) => void;
}

export interface VectorHttpResult {
  /** recall@k of the HTTP responses, one request per query. */
  recall: { strand: number; floor: number; queries: number };
  search: Comparison;
  add: Comparison;
  addDim: number;
}

interface Hit {
  n: number;
  score: number;
}

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as unknown };
}

/** The `n` of each hit of a search response; throws on anything but 200 with k hits. */
async function searchOnce(url: string, v: readonly number[], k: number): Promise<number[]> {
  const { status, json } = await post(url, { v });
  const hits = (json as { hits?: Hit[] }).hits;
  if (status !== 200 || !Array.isArray(hits) || hits.length !== k)
    throw new Error(`${url}: expected ${k} hits, got ${status} ${JSON.stringify(json).slice(0, 300)}`);
  return hits.map((h) => h.n);
}

async function startVectorFloor(settings: VectorHttpSettings, indexFile: string, floorDir: string): Promise<ChildServer> {
  const args = [
    "--index",
    indexFile,
    "--dim",
    String(settings.fixture.set.dim),
    "--path",
    floorDir,
    "--add-dim",
    String(settings.addDim),
    "--ef",
    String(settings.ef),
    "--k",
    String(settings.fixture.k),
  ];
  const child = fork(FLOOR_SCRIPT, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  trackChild(child);
  const output = captureOutput(child);
  const url = await waitFor<string>(child, "vector floor server", output, (done) => {
    child.on("message", (message: unknown) => {
      const ready = message as { ready?: unknown; url?: unknown };
      if (ready.ready === true && typeof ready.url === "string") done(ready.url);
    });
  });
  return { url, child, output, stop: () => stopChild(child) };
}

export async function runVectorHttp(settings: VectorHttpSettings): Promise<VectorHttpResult> {
  const { fixture, log } = settings;
  const indexFile = join(settings.workDir, "raw.hnsw");
  const floorDir = join(settings.workDir, "vector-floor");
  mkdirSync(floorDir, { recursive: true });
  settings.raw.writeIndexSync(indexFile);

  const servers: ChildServer[] = [];
  try {
    const floor = await startVectorFloor(settings, indexFile, floorDir);
    servers.push(floor);
    const strand = await startStrand(settings.strandDir, settings.profileDir, VECTOR_PROJECT);
    servers.push(strand);
    log(`vector servers up: strand ${strand.url} (pid ${strand.child.pid}), floor ${floor.url} (pid ${floor.child.pid})`);

    const strandFound: number[][] = [];
    const floorFound: number[][] = [];
    for (const q of fixture.queries) {
      strandFound.push(await searchOnce(`${strand.url}/SearchVec`, q, fixture.k));
      floorFound.push(await searchOnce(`${floor.url}/floor/search`, q, fixture.k));
    }
    const recall = {
      strand: recallAtK(fixture.truth, strandFound),
      floor: recallAtK(fixture.truth, floorFound),
      queries: fixture.queries.length,
    };
    log(`vector: recall@${fixture.k} over HTTP: strand ${recall.strand.toFixed(3)}, floor ${recall.floor.toFixed(3)}`);

    const addSet = unitVectors(seededRandom(settings.seed + 1), settings.addPool, settings.addDim);
    const addBodies = Array.from({ length: settings.addPool }, (_, i) => vectorAt(addSet, i));
    for (const [url, body] of [
      [`${strand.url}/AddEmb`, { v: addBodies[0], n: -1 }],
      [`${floor.url}/floor/add`, { v: addBodies[0], n: -1 }],
    ] as const) {
      const { status, json } = await post(url, body);
      if (status !== 200 || typeof (json as { vec?: unknown }).vec !== "string")
        throw new Error(`sanity check of ${url} failed: ${status} ${JSON.stringify(json).slice(0, 300)}`);
    }

    let q = 0;
    let added = 0;
    const searchBody = (): string => JSON.stringify({ v: fixture.queries[q++ % fixture.queries.length] });
    const addBody = (): string => JSON.stringify({ v: addBodies[added % addBodies.length], n: added++ });
    const [search, add] = await compareRoutes(
      [
        {
          key: "searchv",
          title: `HTTP SearchV (k ${fixture.k})`,
          strand: { url: `${strand.url}/SearchVec`, pid: strand.child.pid, bodies: searchBody },
          floor: { url: `${floor.url}/floor/search`, pid: floor.child.pid, bodies: searchBody },
          bodyPool: fixture.queries.length,
        },
        {
          key: "addv",
          title: `HTTP AddV (dim ${settings.addDim})`,
          strand: { url: `${strand.url}/AddEmb`, pid: strand.child.pid, bodies: addBody },
          floor: { url: `${floor.url}/floor/add`, pid: floor.child.pid, bodies: addBody },
          bodyPool: settings.addPool,
        },
      ],
      {
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        warmupSeconds: settings.warmupSeconds,
        rounds: settings.rounds,
        log,
      },
    );
    return { recall, search: search!, add: add!, addDim: settings.addDim };
  } catch (error) {
    for (const server of servers) process.stderr.write(`--- output of ${server.url} (pid ${server.child.pid}):\n${server.output()}\n`);
    throw error;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
