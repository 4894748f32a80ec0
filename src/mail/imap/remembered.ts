// A map that keeps only its newest entries: what a pool remembers of mail servers and folders
// (./server-facts.ts, ./view-hints.ts) without growing with every host or folder ever seen.
export class Remembered<V> {
  readonly #entries = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string): V | null {
    return this.#entries.get(key) ?? null;
  }

  /** Sets `key` as the newest entry; the oldest goes once there are more than `max`. */
  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
