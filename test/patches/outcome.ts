// What a call came to, patched or not: its value, or the error it threw with everything the error
// carries (message, code, parserContext…), so two implementations can be compared case by case.

export type Outcome = { value: unknown } | { error: Record<string, unknown> };

/** An error as its message, name and every own property (code, parserContext, parsedTag…). */
function describeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { thrown: err };
  return { ...err, name: err.name, message: err.message, constructor: err.constructor.name };
}

export async function outcome(run: () => unknown): Promise<Outcome> {
  try {
    return { value: await run() };
  } catch (err) {
    return { error: describeError(err) };
  }
}

/** null when the outcomes are the same (values deeply and strictly equal, or the same error). */
export function difference(unpatched: Outcome, patched: Outcome): string | null {
  if (Bun.deepEquals(unpatched, patched, true)) return null;
  return `unpatched: ${Bun.inspect(unpatched, { depth: 12 })}\npatched:   ${Bun.inspect(patched, { depth: 12 })}`;
}
