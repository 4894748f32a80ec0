// Seeded generation for the property tests: every case draws from its own generator, derived from the
// run's seed and the case's number, so a failure names both and replays alone. The seed is random per
// run (each run tries new cases) unless PROPERTY_SEED sets it. The fast loop (`bun run test:unit`) runs
// a fifth of each property's cases; `bun run test` runs them all.
import { UNIT_RUN_ENV } from "./unit-guard.ts";

export const SEED_ENV = "PROPERTY_SEED";

/** A property test's time limit: a few seconds on a quiet machine, several times that on a shared one
 * (`bun test` run directly gives a test 5 s). */
export const PROPERTY_TIMEOUT = 30_000;

/** How many of a property's `count` cases this run tries: all, or a fifth in the fast loop. */
export function caseCount(count: number): number {
  return process.env[UNIT_RUN_ENV] === "1" ? Math.ceil(count / 5) : count;
}

/** The run's seed: PROPERTY_SEED when set, else a fresh random one. */
export function runSeed(): number {
  const fixed = process.env[SEED_ENV];
  if (fixed !== undefined && fixed !== "") return Number(fixed) >>> 0;
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** A small, fast PRNG (mulberry32): the same seed gives the same draws on every machine. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** `count` draws of `draw`, as an array. */
  times<T>(count: number, draw: () => T): T[] {
    return Array.from({ length: count }, draw);
  }
  /** A string of `length` characters drawn from `alphabet` (a string or a list of pieces). */
  text(alphabet: string | readonly string[], length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

/** The generator of case `index` in the run seeded `seed`. */
export function caseRng(seed: number, index: number): Rng {
  return new Rng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
}

export type Property<T> = {
  /** Names the property in the failure message. */
  name: string;
  count: number;
  generate: (rng: Rng) => T;
  /** null when the case holds, else what differs (the case itself is printed with it). */
  check: (input: T) => string | null | Promise<string | null>;
  /** How a failing case is printed, when its own form is unreadable (bytes). */
  show?: (input: T) => unknown;
};

/**
 * Runs a property over its generated cases (caseCount of them); the first failing case fails it with
 * the seed to replay. Returns how many cases ran.
 */
export async function forAll<T>(property: Property<T>, seed = runSeed()): Promise<number> {
  const count = caseCount(property.count);
  for (let i = 0; i < count; i++) {
    const input = property.generate(caseRng(seed, i));
    let differs: string | null;
    try {
      differs = await property.check(input);
    } catch (err) {
      differs = `the check threw: ${err instanceof Error ? err.stack : String(err)}`;
    }
    if (differs !== null) {
      throw new Error(
        `${property.name}: case ${i} of seed ${seed} (replay: ${SEED_ENV}=${seed} bun test <this file>)\n` +
          `input: ${Bun.inspect(property.show ? property.show(input) : input, { depth: 12 })}\n${differs}`,
      );
    }
  }
  return count;
}
