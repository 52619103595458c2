// Seeds of the crash tests. Each run takes its seed from STRAND_CRASH_SEED when set, else a random
// one; everything random in the run (the operations the child performs, their values, when it is
// killed) is drawn from it, and a failing run prints it, so
//   STRAND_CRASH_SEED=<seed> npx vitest run test/<file>.test.ts
// replays the same operations and the same kill point.
import { onTestFailed } from "vitest";
import { rng } from "./vector-fixtures.js";

export const SEED_VARIABLE = "STRAND_CRASH_SEED";

/** The run's seed and its random stream; call inside the test (a failure prints the seed). */
export function crashSeed(testFile: string): { seed: number; random: () => number } {
  const given = process.env[SEED_VARIABLE];
  const seed = given === undefined || given === "" ? Math.floor(Math.random() * 2 ** 32) : Number(given);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`${SEED_VARIABLE} must be an integer >= 0, got "${given ?? ""}"`);
  onTestFailed(() => {
    console.error(`crash test seed ${seed}; replay with: ${SEED_VARIABLE}=${seed} npx vitest run ${testFile}`);
  });
  return { seed, random: rng(seed) };
}

/** An integer in [min, max). */
export function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min));
}
