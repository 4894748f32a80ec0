// completion/complete (MCP completions): folder paths for a prompt's `folder` argument and for the
// message templates' {folder}; the newest UIDs of that folder for its {uid}; the connection's mailbox
// addresses for {account} (the folder and uid then come from the mailbox chosen). Answered from the token's
// own mailbox, so the handler needs the request's token: the SDK gives its own completion callbacks
// only the value, hence this handler on the low-level server, which gets the request context.
// Values are folder paths and numbers only (nothing a sender wrote); completion is a convenience, so
// a mail-server failure answers no values rather than an error.
import { ProtocolError, ProtocolErrorCode, type CompleteRequest, type CompleteResult, type McpServer, type ServerContext }
  from "@modelcontextprotocol/server";
import type { ImapFlow } from "imapflow";
import { listFolders } from "../mail/imap/folders.ts";
import { recentEmails } from "../mail/read/recent.ts";
import { tokenOf, toolContext } from "./call-context.ts";
import { PROMPTS } from "./prompts/index.ts";
import { ACCOUNT_MESSAGE_TEMPLATE, MESSAGE_TEMPLATE } from "./resources/message.ts";
import { accountsStarting, mailboxRefFor } from "./accounts/mailbox-ref.ts";
import type { McpServerDeps } from "./server-deps.ts";

/** MCP caps a completion at 100 values. */
const MAX_VALUES = 100;
const UID_SUGGESTIONS = 20;

type Completer = (client: ImapFlow, value: string, context: Record<string, string>) => Promise<string[]>;

/** Selectable folders whose path, or last segment, starts with what was typed (case-insensitive). */
const folders: Completer = async (client, value) => {
  const typed = value.toLowerCase();
  return (await listFolders(client))
    .filter((f) => !f.flags.has("\\Noselect"))
    .filter((f) => f.path.toLowerCase().startsWith(typed) || f.name.toLowerCase().startsWith(typed))
    .map((f) => f.path);
};

/** The newest UIDs of the folder chosen so far (INBOX before one is), those starting with what was typed. */
const uids: Completer = async (client, value, context) => {
  const page = await recentEmails(client, { folder: context.folder || "INBOX", limit: UID_SUGGESTIONS, beforeUid: null, unreadOnly: false });
  return page.emails.map((e) => String(e.uid)).filter((uid) => uid.startsWith(value));
};

/** The account variable is completed from the store (the connection's addresses), not from a mailbox. */
const ACCOUNTS = "accounts" as const;

/** Which completer answers this reference and argument; null: nothing to complete (an empty answer). */
function completerFor(params: CompleteRequest["params"]): Completer | typeof ACCOUNTS | null {
  const { ref, argument } = params;
  if (ref.type === "ref/prompt") {
    const prompt = PROMPTS.find((p) => p.name === ref.name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
    if (argument.name === "account") return ACCOUNTS;
    return argument.name === "folder" ? folders : null;
  }
  if (ref.type === "ref/resource") {
    if (ref.uri !== MESSAGE_TEMPLATE && ref.uri !== ACCOUNT_MESSAGE_TEMPLATE) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource template ${ref.uri} not found`);
    if (argument.name === "account" && ref.uri === ACCOUNT_MESSAGE_TEMPLATE) return ACCOUNTS;
    return argument.name === "folder" ? folders : argument.name === "uid" ? uids : null;
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid completion reference");
}

const result = (values: string[]): CompleteResult =>
  ({ completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } });

async function complete(deps: McpServerDeps, request: CompleteRequest, ctx: ServerContext): Promise<CompleteResult> {
  const completer = completerFor(request.params);
  const caller = tokenOf(ctx.http?.authInfo);
  if (!completer || !caller) return result([]);
  const signal = ctx.mcpReq.signal;
  const { value } = request.params.argument;
  const chosen = request.params.context?.arguments ?? {};
  try {
    if (completer === ACCOUNTS) return result(await accountsStarting(deps.mailboxes, caller.grantId, value));
    const mailbox = await mailboxRefFor(deps.mailboxes, caller.grantId, chosen.account);
    if (!mailbox) return result([]);
    const tool = toolContext(deps, caller.auth, caller, signal, undefined, mailbox);
    const values = await deps.calls.run(caller.tokenId, signal, () =>
      tool.withImap((client) => completer(client, value, chosen)));
    return result(values);
  } catch (err) {
    deps.log.warn("completion failed", { error: err instanceof Error ? err.message : String(err) });
    return result([]);
  }
}

/** The capability itself is declared with the others (./capabilities.ts). */
export function registerCompletions(server: McpServer, deps: McpServerDeps): void {
  server.server.setRequestHandler("completion/complete", (request, ctx) => complete(deps, request, ctx));
}
