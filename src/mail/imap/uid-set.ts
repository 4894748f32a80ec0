// UID sets as ranges, so a search matching 20,000 messages is a handful of numbers, not an array of
// 20,000 (ESEARCH RETURN (ALL) sends "1:19000,19002:20000"). Paging takes the top of the ranges.

export type Range = readonly [low: number, high: number];

/** Parses an IMAP sequence set of numbers ("1,5:10,20"); ranges may be written high:low. */
export function parseSet(set: string): Range[] {
  if (!set) return [];
  return set.split(",").map((part) => {
    const [a, b = a] = part.split(":").map(Number) as [number, number?];
    return [Math.min(a, b!), Math.max(a, b!)] as const;
  });
}

/** Sorted, merged ranges from a plain list of numbers (servers without ESEARCH). */
export function rangesOf(numbers: number[]): Range[] {
  const sorted = [...numbers].sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && n <= last[1] + 1) last[1] = Math.max(last[1], n);
    else out.push([n, n]);
  }
  return out;
}

/** A compact IMAP set for a list of numbers: [5,4,3,1] -> "1,3:5". */
export function toSet(numbers: number[]): string {
  return rangesOf(numbers).map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}:${hi}`)).join(",");
}

/**
 * Sorted, disjoint ranges from ranges in any order, overlapping or adjacent ones joined; ranges that
 * hold no UID (a server's or a cursor's garbage: 0, NaN) are dropped. Never one number per UID.
 */
export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = ranges.filter(([lo, hi]) => Number.isSafeInteger(lo) && Number.isSafeInteger(hi) && lo >= 1 && lo <= hi)
    .sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The members of `a` that are not in `b`, as sorted ranges. */
export function subtractRanges(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Array<[number, number]> = [];
  const minus = mergeRanges(b);
  for (const [lo, hi] of mergeRanges(a)) {
    let from = lo;
    for (const [blo, bhi] of minus) {
      if (bhi < from || blo > hi) continue;
      if (blo > from) out.push([from, blo - 1]);
      from = bhi + 1;
    }
    if (from <= hi) out.push([from, hi]);
  }
  return out;
}

/** The members at or above `low`, as sorted ranges. */
export function rangesFrom(ranges: readonly Range[], low: number): Range[] {
  return mergeRanges(ranges).flatMap(([lo, hi]): Range[] => (hi < low ? [] : [[Math.max(lo, low), hi]]));
}

/** The members in ascending order, at most `max` of them: what a hostile range ("1:4294967295") may cost. */
export function membersOf(ranges: readonly Range[], max: number): number[] {
  const out: number[] = [];
  for (const [lo, hi] of mergeRanges(ranges)) {
    for (let n = lo; n <= hi && out.length < max; n++) out.push(n);
  }
  return out;
}

export function countOf(ranges: Range[]): number {
  return ranges.reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
}

export interface TopPage {
  /** Highest first. */
  uids: number[];
  /** True when members below the page remain. */
  more: boolean;
}

/** The `limit` highest members below `before` (exclusive; no bound when null). */
export function topBelow(ranges: Range[], limit: number, before: number | null): TopPage {
  const ceiling = before === null ? Infinity : before - 1;
  const sorted = [...ranges].sort((a, b) => b[1] - a[1]);
  const uids: number[] = [];
  for (const [lo, hi] of sorted) {
    for (let n = Math.min(hi, ceiling); n >= lo; n--) {
      if (uids.length === limit) return { uids, more: true };
      uids.push(n);
    }
  }
  return { uids, more: false };
}

/** The numbers of an IMAP set such as "2:4,9" (at most 100,000 of them: a bound on what a server makes us hold). */
export function expandSet(set: string): number[] {
  const out: number[] = [];
  for (const part of set.split(",")) {
    const [a = 0, b = a] = part.split(":").map(Number);
    for (let n = Math.min(a, b); n <= Math.max(a, b) && out.length < 100_000; n++) out.push(n);
  }
  return out.filter((n) => Number.isSafeInteger(n) && n > 0);
}
