// bun's test.each fills %s/%d from the row's values in order and prints the rest of the title
// verbatim once a value does not fit (an object under %d): rows of [name, overrides, status, error]
// are reordered so the title "%s → %d %s" names the expected outcome.
type Overrides = Record<string, string | null>;
export type OutcomeRow = [name: string, overrides: Overrides, status: number, error: string];

export function byOutcome(rows: OutcomeRow[]): Array<[string, number, string, Overrides]> {
  return rows.map(([name, overrides, status, error]) => [name, status, error, overrides]);
}
