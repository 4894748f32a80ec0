// A command the server answered NO or BAD, worded for the caller: what we tried and the server's
// own reason (its text, not a sender's, but cleaned like any line that reaches a model).
import { cleanLine } from "../content/sanitize.ts";
import { MailError } from "../errors.ts";

export async function unlessRefused<T>(what: string, fn: () => Promise<T>, after = "Nothing was changed."): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { responseStatus?: string; responseText?: string };
    if (e.responseStatus !== "NO" && e.responseStatus !== "BAD") throw err;
    throw new MailError("protocol", `The mail server refused to ${what}: ${cleanLine(e.responseText ?? "no reason given")}. ${after}`);
  }
}
