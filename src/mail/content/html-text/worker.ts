// The HTML→text thread (see converter.ts, ../worker-pool.ts). html-to-text runs here, so a document that is slow to
// convert (a 4 MB table) or too deep to walk (24,000 nested tags) costs only this thread, which the
// converter terminates when the budget is spent; the server's event loop never waits on it.
// Built into the single executable as its own entry point (scripts/build.ts).
import { compile } from "html-to-text";
import { HTML_TO_TEXT_OPTIONS } from "./options.ts";

declare const self: Worker;

const convert = compile(HTML_TO_TEXT_OPTIONS);

// The protocol of ../worker-pool.ts: {id, input} in, {id, value} or {id, error} out.
self.onmessage = (event: MessageEvent<{ id: number; input: string }>) => {
  const { id, input: html } = event.data;
  try {
    self.postMessage({ id, value: convert(html) });
  } catch (err) {
    // RangeError "Maximum call stack size exceeded" on deep nesting: the caller strips tags instead.
    self.postMessage({ id, error: err instanceof Error ? err.name : "Error" });
  }
};
