// list_accounts: the mailboxes of this connection (docs/design.md §6 "Several mailboxes"), what the
// `account` argument of every mailbox tool names.
import { z } from "zod";
import { READ_ONLY } from "../annotations.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";

const accountSchema = z.object({
  account: z.string().describe("The mailbox's address in lower case: pass it as `account` to the other tools."),
  label: z.string().describe("How to call the mailbox to the person (its address)."),
  provider: z.string().nullable().describe("The provider it was connected with (gmail, fastmail, custom, …), or null when not recorded."),
  access: z.enum(["read", "read_write"]).describe("read: reading only; read_write: also changing and sending."),
  send_policy: z.string().describe("When sending from it asks the person first: never, new_recipients, always or direct."),
  status: z.enum(["ok", "sign_in_lost"]).describe("sign_in_lost: the provider sign-in must be renewed (reconnect this mailbox)."),
});

export const listAccounts = defineTool({
  name: "list_accounts",
  kind: "read",
  config: {
    title: "List connected mailboxes",
    description:
      "Lists the mailboxes this connection reaches (one, or several: work, personal…), with their access and send policy. " +
      "Pass a mailbox's `account` to the other tools to work in it; reads without `account` span every mailbox.",
    inputSchema: {},
    outputSchema: { accounts: z.array(accountSchema) },
    annotations: { ...READ_ONLY, openWorldHint: false },
  },
  handler: async (_args, ctx) => {
    const accounts = (await ctx.accounts()).map((r) => {
      const account = r.address ?? (r.position === 0 ? "(first mailbox)" : `(mailbox ${r.position + 1})`);
      return { account, label: account, provider: r.provider, access: r.access, send_policy: r.sendPolicy, status: r.signInLost ? "sign_in_lost" as const : "ok" as const };
    });
    const lines = accounts.map((a) => `${a.account}: ${a.access === "read" ? "read only" : "read and write"}, sending ${a.send_policy}${a.status === "ok" ? "" : ", sign-in lost: reconnect"}`);
    return ok({ accounts }, lines.join("\n") || "No mailbox is connected.");
  },
});
