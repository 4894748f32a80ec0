// The k-way merge every search over several folders or mailboxes pages by: repeatedly the newest
// head among the lists, by arrival time (INTERNALDATE, set by the server, never by a sender); ties
// go to the list given first. Each list is consumed in its own order, so what is taken from a list
// is always a prefix of it and a cursor can say where that list stopped.

/** Which list's which item, in page order, for at most `limit` items. */
export function newestFirst(lists: readonly (readonly { at: number }[])[], limit: number): Array<[list: number, item: number]> {
  const order: Array<[number, number]> = [];
  const taken = lists.map(() => 0);
  const head = (i: number) => lists[i]![taken[i]!];
  while (order.length < limit) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const h = head(i);
      if (h && (best < 0 || h.at > head(best)!.at)) best = i;
    }
    if (best < 0) break;
    order.push([best, taken[best]!++]);
  }
  return order;
}

/** How many items each of `count` lists gave to the first `shown` of `order`. */
export function takenOf(order: readonly [number, number][], count: number, shown = order.length): number[] {
  const taken = new Array<number>(count).fill(0);
  for (const [i] of order.slice(0, shown)) taken[i]!++;
  return taken;
}
