/** Milliseconds since the epoch. Injected everywhere expiry matters so tests never sleep. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** A clock tests can move forward by hand. */
export function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  const clock = (() => now) as Clock & { advance(ms: number): void; set(ms: number): void };
  clock.advance = (ms: number) => { now += ms; };
  clock.set = (ms: number) => { now = ms; };
  return clock;
}
