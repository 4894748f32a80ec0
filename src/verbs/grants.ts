// `mailbox-mcp grants` and `mailbox-mcp revoke <grant-id | email>` (docs/design.md §1, docs/owner.md):
// what has access to the mailboxes on this server, and cutting it off without the client's token.
import type { Config } from "../config.ts";
import { WRITE_SCOPE } from "../scopes.ts";
import { SEND_POLICY_LABELS } from "../send-policy.ts";
import type { GrantSummary } from "../store/grant-admin.ts";
import type { Store } from "../store/store.ts";
import type { MailboxRow } from "../store/grant-mailboxes.ts";
import { printable, printableLines } from "./printable.ts";
import { utcMinute, VerbError, type Out } from "./verb-args.ts";

/** How many characters of a grant id are shown; revoke accepts any unique prefix of at least MIN_PREFIX. */
export const SHORT_ID = 8;
const MIN_PREFIX = 4;

function clientLine(g: GrantSummary, config: Config): string {
  const id = g.clientId;
  const client = id === null ? "(unknown client)"
    : id === config.clientId ? `${id} (this server's OAuth client)`
    : g.clientName ? `"${g.clientName}" (self-declared name), ${id}` : id;
  const host = g.redirectUri && URL.canParse(g.redirectUri) ? new URL(g.redirectUri).host : null;
  return host ? `${client}, signed in through ${host}` : client;
}

const canWrite = (scope: string) => scope.split(" ").includes(WRITE_SCOPE);
const scopeText = (scope: string) => (canWrite(scope) ? `${scope} (read and write)` : `${scope} (read only)`);

/** The send policy in words; a read-only grant sends nothing whatever its row says (docs/owner.md §3). */
const sendText = (g: GrantSummary) => (canWrite(g.scope) ? `${g.sendPolicy} (${SEND_POLICY_LABELS[g.sendPolicy]})` : "never (read only)");

function mailbox(g: GrantSummary): string {
  return g.label ? `${g.label.email} on ${g.label.host}` : "(mailbox not recorded: connected before this version)";
}

/** A grant whose provider refused its refresh token (docs/design.md §5) is live but can do nothing until reconnected. */
function signInLines(g: GrantSummary): string[] {
  if (g.signInLostAt === null) return [];
  const at = g.label?.signIn ? `at ${g.label.signIn} ` : "";
  return [`  sign-in    LOST ${utcMinute(g.signInLostAt)}: the sign-in ${at}expired or was revoked; the app must reconnect the mailbox`];
}

export function formatGrants(grants: GrantSummary[], config: Config, extra: Map<string, string[]> = new Map()): string {
  if (grants.length === 0) return "No live grants: no app has access to a mailbox on this server.\n";
  // The mailbox label was typed on the setup form and a client's name by whoever registered it: printable (./printable.ts).
  const blocks = grants.map((g) => printableLines([
    `${g.id.slice(0, SHORT_ID)}  ${mailbox(g)}`,
    `  client     ${clientLine(g, config)}`,
    `  scope      ${scopeText(g.scope)}`,
    `  sending    ${sendText(g)}`,
    `  created    ${utcMinute(g.createdAt)}`,
    `  last used  ${g.lastUsedAt === null ? "never" : utcMinute(g.lastUsedAt)}`,
    `  expires    ${utcMinute(g.expiresAt)}`,
    ...signInLines(g),
    ...(extra.get(g.id) ?? []),
  ]));
  return `${grants.length} live grant${grants.length === 1 ? "" : "s"}:\n\n${blocks.join("\n\n")}\n`;
}

/** The grants an argument names: every grant of an email address, or the one grant an id prefix picks. */
export function pickGrants(grants: GrantSummary[], what: string, command: string): GrantSummary[] {
  const hint = `List them with: ${command} grants`;
  if (what.includes("@")) {
    const email = what.trim().toLowerCase();
    const mine = grants.filter((g) => g.label?.email.toLowerCase() === email);
    if (mine.length === 0) throw new VerbError(`no live grant for ${what}. ${hint}`);
    return mine;
  }
  const prefix = what.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(prefix) || prefix.length < MIN_PREFIX) {
    throw new VerbError(`"${what}" is neither a grant id (at least ${MIN_PREFIX} hex characters) nor an email address. ${hint}`);
  }
  const matches = grants.filter((g) => g.id.startsWith(prefix));
  if (matches.length === 0) throw new VerbError(`no live grant has the id ${what}. ${hint}`);
  if (matches.length > 1) {
    throw new VerbError(`${what} matches ${matches.length} grants (${matches.map((g) => g.id.slice(0, 12)).join(", ")}): give more of the id.`);
  }
  return matches;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function grantJson(g: GrantSummary) {
  return {
    id: g.id, email: g.label?.email ?? null, mail_host: g.label?.host ?? null, client_id: g.clientId, client_name: g.clientName,
    redirect_uri: g.redirectUri, scope: g.scope, send_policy: canWrite(g.scope) ? g.sendPolicy : "never", created_at: iso(g.createdAt), last_used_at: iso(g.lastUsedAt), expires_at: iso(g.expiresAt),
    sign_in: g.label?.signIn ?? null, sign_in_lost_at: iso(g.signInLostAt),
  };
}

export async function grantsVerb(store: Store, config: Config, json: boolean, out: Out): Promise<void> {
  const grants = await store.admin.list();
  const rows = new Map(await Promise.all(grants.map(async (g) => [g.id, await store.mailboxes.list(g.id)] as const)));
  if (json) {
    const mailboxesOf = (id: string) => (rows.get(id) ?? []).map((m) => ({ address: m.address, access: m.access, send_policy: m.sendPolicy, sign_in_lost: m.signInLost }));
    return out(JSON.stringify(grants.map((g) => ({ ...grantJson(g), mailboxes: mailboxesOf(g.id) })), null, 2) + "\n");
  }
  out(formatGrants(grants, config, new Map(grants.map((g) => [g.id, mailboxLines(rows.get(g.id) ?? [])]))));
}

export async function revokeVerb(store: Store, config: Config, what: string, command: string, out: Out): Promise<void> {
  if (what.includes("@")) return revokeAddress(store, what, command, out);
  const chosen = pickGrants(await store.admin.list(), what, command);
  await store.admin.revoke(chosen.map((g) => g.id));
  for (const g of chosen) out(`${printable(`Revoked ${g.id.slice(0, SHORT_ID)}  ${mailbox(g)}`)}\n`);
  out("Their stored credentials are destroyed and their access tokens no longer work. A running server on this store\n" +
    "ends their sessions and mail connections within 2 seconds. The apps must sign in again to get access back.\n");
}

/**
 * `revoke <address>`: that mailbox leaves every connection holding it (its sealed credentials are
 * deleted); a connection left with no mailbox is revoked whole, through the same revocation rows a
 * running server fans out from (sessions and mail connections end).
 */
async function revokeAddress(store: Store, what: string, command: string, out: Out): Promise<void> {
  const address = what.trim().toLowerCase();
  const { grants, revokedGrants } = await store.mailboxes.removeAddress(address);
  if (!grants.length) throw new VerbError(`no live grant for ${what}. List them with: ${command} grants`);
  for (const id of grants) {
    out(`${printable(revokedGrants.includes(id) ? `Revoked ${id.slice(0, SHORT_ID)}  ${address}` : `Removed ${address} from ${id.slice(0, SHORT_ID)} (its other mailboxes stay)`)}\n`);
  }
  out("Its stored credentials are destroyed; connections left without a mailbox no longer work. A running server on this store\n" +
    "ends their sessions and mail connections within 2 seconds. The apps must connect the mailbox again to get access back.\n");
}

/** The addresses of a connection's mailboxes, for `grants` (one line; empty for a one-mailbox connection). */
export function mailboxLines(rows: readonly MailboxRow[]): string[] {
  return rows.length > 1 ? [`  mailboxes  ${rows.map((r) => `${r.address ?? "?"} (${r.access === "read" ? "read" : "read/write"}, ${r.sendPolicy})`).join(", ")}`] : [];
}
