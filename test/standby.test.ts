// The standby front door's rule (server/front-door/standby.ts): it takes the engine's socket once
// the engine's heartbeat (heartbeat.ts) has stood still for HELD_AFTER_MS, gives it back at the
// first beat after, and gives it back for good when stopped. Driven step by step with a clock.
import { expect, it } from "vitest";
import { BEAT_MS, EngineHeartbeat, heartbeatCell } from "../server/front-door/heartbeat.js";
import { CHECK_EVERY_MS, FREE_AFTER_MS, HELD_AFTER_MS, StandbyWatch } from "../server/front-door/standby.js";

function watched(): { cell: SharedArrayBuffer; beat: () => void; clock: { now: number }; actions: string[]; watch: StandbyWatch } {
  const cell = heartbeatCell();
  const beats = new Int32Array(cell);
  const clock = { now: 1_000 };
  const actions: string[] = [];
  const watch = new StandbyWatch(
    cell,
    { take: () => actions.push(`take@${clock.now}`), give: () => actions.push(`give@${clock.now}`) },
    () => clock.now,
  );
  return { cell, beat: () => void Atomics.add(beats, 0, 1), clock, actions, watch };
}

it("holds once the heartbeat has stood still for HELD_AFTER_MS (25 ms), and gives back once it has beaten FREE_AFTER_MS (50 ms)", () => {
  expect([BEAT_MS, HELD_AFTER_MS, FREE_AFTER_MS, CHECK_EVERY_MS]).toEqual([10, 25, 50, 5]);
  const { beat, clock, actions, watch } = watched();
  // Beating every 10 ms: never held.
  for (let t = 0; t < 10; t++) {
    clock.now += 5;
    if (t % 2 === 1) beat();
    watch.check();
  }
  expect(actions).toEqual([]);
  expect(watch.accepting).toBe(false);
  // Still since 1,050: at 1,070 not yet, at 1,075 held.
  clock.now = 1_070;
  watch.check();
  expect(actions).toEqual([]);
  clock.now = 1_075;
  watch.check();
  expect(actions).toEqual(["take@1075"]);
  expect(watch.accepting).toBe(true);
  // Held: further checks do nothing more.
  clock.now = 1_500;
  watch.check();
  expect(actions).toEqual(["take@1075"]);
  // The engine beats again: given back once it has beaten FREE_AFTER_MS (50 ms) without standing still 25 ms.
  const beatEvery10 = (from: number, to: number): void => {
    for (clock.now = from; clock.now <= to; clock.now += 5) {
      if (clock.now % 10 === 0) beat();
      watch.check();
    }
  };
  beatEvery10(1_500, 1_545);
  expect(actions).toEqual(["take@1075"]);
  beatEvery10(1_550, 1_550);
  expect(actions).toEqual(["take@1075", "give@1550"]);
  expect(watch.accepting).toBe(false);
  // Held again after another 25 still ms; a gap of beats shorter than 50 ms between two holds keeps it.
  clock.now = 1_575;
  watch.check();
  expect(actions).toEqual(["take@1075", "give@1550", "take@1575"]);
  beatEvery10(2_000, 2_030);
  clock.now = 2_060;
  watch.check();
  beatEvery10(2_070, 2_115);
  expect(actions).toEqual(["take@1075", "give@1550", "take@1575"]);
  beatEvery10(2_120, 2_120);
  expect(actions).toEqual(["take@1075", "give@1550", "take@1575", "give@2120"]);
});

it("gives the socket back when stopped while holding it, and not again after", () => {
  const { clock, actions, watch } = watched();
  clock.now += HELD_AFTER_MS;
  watch.check();
  watch.stop();
  watch.stop();
  expect(actions).toEqual(["take@1025", "give@1025"]);
  expect(watch.accepting).toBe(false);
});

it("the engine's heartbeat raises its cell from the event loop's timers, and stops when told", async () => {
  const cell = heartbeatCell();
  const beats = new Int32Array(cell);
  const heartbeat = new EngineHeartbeat(cell);
  const ref = setInterval(() => {}, 1_000); // the heartbeat's timer is unref'd: keep this test's loop alive
  try {
    while (Atomics.load(beats, 0) < 3) await new Promise((resolve) => setTimeout(resolve, BEAT_MS));
    heartbeat.stop();
    const stopped = Atomics.load(beats, 0);
    await new Promise((resolve) => setTimeout(resolve, 5 * BEAT_MS));
    expect(Atomics.load(beats, 0)).toBe(stopped);
  } finally {
    clearInterval(ref);
  }
});
