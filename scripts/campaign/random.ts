// Seeded randomness for the campaigns: one seed replays a run's choices exactly (mulberry32).

import type { Random } from "../../bench/random.js";

export { type Random, seededRandom } from "../../bench/random.js";

/** An integer in [min, max). */
export function between(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
