// What every mailbox tool gains for connections of several mailboxes (docs/tools.md "Accounts"): the
// optional `account` argument and, in its results, `account`; the spanning reads also `cursor`,
// `next_cursor` and `accounts_failed`. Applied to the tools in ../tools/index.ts, so no tool file
// repeats it; a one-mailbox connection's results are as before.
import type { AnyTool } from "../tools/registry.ts";
import {
  accountArg, accountOut, accountsFailedOut, spanCursorArg, spanNextCursorOut,
} from "../tools/schemas/account.ts";
import type { Across } from "./across.ts";

/** The tool with `account`; `across` for the reads that span every mailbox when no account is named. */
export function withAccount<T extends AnyTool>(tool: T, across?: Across): T & { across?: Across } {
  const input = { ...tool.config.inputSchema, account: accountArg };
  const output = { ...tool.config.outputSchema, account: accountOut };
  if (across) {
    if (!("cursor" in input)) Object.assign(input, { cursor: spanCursorArg });
    if (!("next_cursor" in output)) Object.assign(output, { next_cursor: spanNextCursorOut });
    Object.assign(output, { accounts_failed: accountsFailedOut });
  }
  return { ...tool, config: { ...tool.config, inputSchema: input, outputSchema: output }, ...(across ? { across } : {}) } as T & { across?: Across };
}
