// The message resource (docs/design.md §3): `mailbox://message/{folder}/{uid}`, one message of the token's
// own mailbox, so a client that lets the person attach a resource (Claude Code's @, VS Code) can. It is
// read exactly as get_email reads it (same text: server-known facts outside, everything a sender wrote
// inside the untrusted-content fence), within the token's call limit, never marking the message read.
// No listing (resources/list stays empty): a list would carry subjects and names outside any fence and
// cost an IMAP login on every connect; the template's variables complete instead (../completions.ts).
// The same URI names different messages for different tokens, so on 2026-07-28 the answer is private
// to the token and not reused (cacheScope "private", ttlMs 0).
import { McpServer, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate, type ReadResourceResult, type ServerContext }
  from "@modelcontextprotocol/server";
import { MailError } from "../../mail/errors.ts";
import { tokenOf, toolContext } from "../call-context.ts";
import { iconsFor } from "../icons/icons.ts";
import type { McpServerDeps } from "../server-deps.ts";
import { getEmail } from "../tools/read/get-email.ts";
import { BusyError } from "../tools/result.ts";
import { mailboxRefFor } from "../accounts/mailbox-ref.ts";

export const MESSAGE_TEMPLATE = "mailbox://message/{folder}/{uid}";
/** The same in a named mailbox of the connection (docs/design.md §3 "Several mailboxes"); the form above reads the first. */
export const ACCOUNT_MESSAGE_TEMPLATE = "mailbox://message/{account}/{folder}/{uid}";
/** What get_email returns by default: the same message reads the same through either door. */
const MAX_CHARS = 20_000;

/** The folder (percent-decoded) and the uid of a message URI's variables, or an InvalidParams error. */
export function messageAddress(variables: Record<string, string | string[]>): { folder: string; uid: number } {
  const raw = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
  let folder: string;
  try {
    folder = decodeURIComponent(raw(variables.folder));
  } catch {
    folder = "";
  }
  const uid = Number(raw(variables.uid));
  if (!folder || !Number.isSafeInteger(uid) || uid < 1 || uid > 4_294_967_295) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams,
      "A message resource is mailbox://message/FOLDER/UID: the folder path percent-encoded (Archive%2F2024), the UID a positive number.");
  }
  return { folder, uid };
}

async function read(deps: McpServerDeps, uri: URL, variables: Record<string, string | string[]>, ctx: ServerContext): Promise<ReadResourceResult> {
  const { folder, uid } = messageAddress(variables);
  const caller = tokenOf(ctx.http?.authInfo);
  if (!caller) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "This request carries no access token. Reconnect the mailbox.");
  const signal = ctx.mcpReq.signal;
  const account = variables.account === undefined ? undefined : decodeURIComponent(String(variables.account));
  const mailbox = await mailboxRefFor(deps.mailboxes, caller.grantId, account);
  if (!mailbox) throw new ResourceNotFoundError(uri.href, `This connection has no mailbox ${account ?? ""}: list_accounts names them.`);
  const tool = toolContext(deps, caller.auth, caller, signal, undefined, mailbox);
  try {
    const result = await deps.calls.run(caller.tokenId, signal, () => getEmail.handler({ folder, uid, max_chars: MAX_CHARS, offset: 0, format: "text" }, tool));
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    return { contents: [{ uri: uri.href, mimeType: "text/plain", text }] };
  } catch (err) {
    if (err instanceof MailError && err.kind === "not_found") throw new ResourceNotFoundError(uri.href, err.message);
    // In words for the caller, as a tool says them: the mail server's trouble, or the token's call limit.
    if (err instanceof MailError || err instanceof BusyError) throw new ProtocolError(ProtocolErrorCode.InternalError, err.message);
    // Cancelled by the client (or its session closed) while waiting or reading: no answer goes out, nothing failed.
    if (signal.aborted) throw err;
    deps.log.error("resource read failed", { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    throw new ProtocolError(ProtocolErrorCode.InternalError, "Reading the message failed with an internal error. Try again.");
  }
}

export function registerMessageResource(server: McpServer, deps: McpServerDeps): void {
  const common = {
    mimeType: "text/plain",
    icons: iconsFor(deps.baseUrl, "read"),
    cacheHint: { ttlMs: 0, cacheScope: "private" as const },
  };
  server.registerResource("message", new ResourceTemplate(MESSAGE_TEMPLATE, { list: undefined }), {
    title: "Email message",
    description: "One message of your mailbox by folder and UID, as get_email reads it: headers and text body, " +
      "with everything the sender wrote inside an untrusted-content fence. Does not mark it read.",
    ...common,
  }, (uri, variables, ctx) => read(deps, uri, variables, ctx));
  server.registerResource("message-in-account", new ResourceTemplate(ACCOUNT_MESSAGE_TEMPLATE, { list: undefined }), {
    title: "Email message in a named mailbox",
    description: "One message by mailbox (its address, as list_accounts names it), folder and UID, read as get_email reads it. " +
      "Does not mark it read.",
    ...common,
  }, (uri, variables, ctx) => read(deps, uri, variables, ctx));
}
