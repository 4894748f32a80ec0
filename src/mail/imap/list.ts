// The folder list, bounded while the server's answer arrives (docs/decisions.md "A hostile mail
// server"). imapflow's list() builds an entry per LIST line whatever their number, merges LSUB into
// LIST with a linear scan per line (O(n²): 50,000 folders held the event loop for most of a minute)
// and sends one STATUS per folder. Here one LIST is read through imapflow's command runner: the
// first MAX_FOLDERS entries are kept, the rest only counted; subscriptions come from LSUB by a map
// lookup; counts come with the LIST where the server offers LIST-STATUS (RFC 5819), else from one
// STATUS per folder kept, within a time budget (../read/mailboxes.ts).
import type { ImapFlow, ListResponse } from "imapflow";
import { MailError } from "../errors.ts";

/**
 * imapflow's own path and flag helpers, imported on the first listing (by then the pooled client has
 * loaded them with imapflow, ./client.ts): their module brings libmime and its charset tables, which
 * an idle server does not hold (docs/performance.md "Idle memory").
 */
type Helpers = typeof import("imapflow/lib/tools.js") & Pick<typeof import("imapflow/lib/special-use.js"), "specialUse">;
let loaded: Promise<Helpers> | undefined;
const helpers = (): Promise<Helpers> =>
  (loaded ??= Promise.all([import("imapflow/lib/tools.js"), import("imapflow/lib/special-use.js")]).then(([tools, use]) => ({ ...tools, specialUse: use.specialUse })));

/** The most folders kept: far above any real account, and a bound on what a hostile server makes us hold. */
export const MAX_FOLDERS = 5000;
/** The most LIST lines read before giving up on the server: ten times any real account. */
export const MAX_LIST_LINES = 100_000;

export interface Listing {
  folders: ListResponse[];
  /** Folders the server listed past MAX_FOLDERS. */
  omitted: number;
  /** Counts that came with the LIST (LIST-STATUS), by path. */
  status: Map<string, { messages?: number; unseen?: number }>;
  /** The server sent counts with the LIST: STATUS per folder is not needed. */
  statusInline: boolean;
}

type Attribute = { type?: string; value?: unknown };
type Untagged = { attributes?: Array<Attribute | Attribute[]> };
type Exec = (command: string, attributes: unknown[], options: { untagged: Record<string, (u: Untagged) => void> }) => Promise<{ next(): void }>;

export interface ListOptions {
  /** Ask for MESSAGES and UNSEEN with the LIST where the server can (LIST-STATUS). */
  status?: boolean;
  /** Read subscriptions (LSUB): list_mailboxes shows them; folder lookups do not need them. */
  subscriptions?: boolean;
}

export async function listBounded(client: ImapFlow, options: ListOptions = {}): Promise<Listing> {
  const h = await helpers();
  const { hasCapability, encodePath } = h;
  const exec = (client as unknown as { exec: Exec }).exec.bind(client);
  const listing: Listing = { folders: [], omitted: 0, status: new Map(), statusInline: false };
  const byPath = new Map<string, ListResponse>();
  let lines = 0;
  const onList = (u: Untagged) => {
    if (++lines > MAX_LIST_LINES) return tooMany(client);
    const entry = toEntry(h, client, u);
    if (!entry || byPath.has(entry.path)) return;
    if (byPath.size >= MAX_FOLDERS) return void listing.omitted++;
    byPath.set(entry.path, entry);
  };
  const onStatus = (u: Untagged) => {
    const path = pathOf(h, client, u.attributes?.[0]);
    if (path !== null && byPath.has(path)) listing.status.set(path, statusOf(u.attributes?.[1]));
  };
  const inline = options.status === true && hasCapability(client, "LIST-STATUS");
  listing.statusInline = inline;
  const args = [encodePath(client, ""), encodePath(client, "*")];
  const returning = inline ? [{ type: "ATOM", value: "RETURN" }, [{ type: "ATOM", value: "STATUS" }, [{ type: "ATOM", value: "MESSAGES" }, { type: "ATOM", value: "UNSEEN" }]]] : [];
  await run(exec, "LIST", [...args, ...returning], { LIST: onList, STATUS: onStatus }).catch(async (err) => {
    if (!inline || !rejected(err)) throw giveUpReason(client) ?? err;
    byPath.clear(); // a server that advertises LIST-STATUS but refuses it: once more, plainly
    listing.omitted = lines = 0;
    await run(exec, "LIST", args, { LIST: onList });
    listing.statusInline = false;
  });
  // A server listing more folders than are kept would send as many LSUB lines again, for
  // folders not shown: their subscription is then left unknown, which imapflow reports as subscribed.
  if (options.subscriptions && listing.omitted === 0) await subscribe(h, exec, client, byPath, args);
  else if (options.subscriptions) for (const entry of byPath.values()) entry.subscribed = !entry.flags.has("\\NonExistent");
  listing.folders = sorted(assignSpecialUse(h, client, [...byPath.values()]));
  return listing;
}

async function run(exec: Exec, command: string, args: unknown[], untagged: Record<string, (u: Untagged) => void>): Promise<void> {
  (await exec(command, args, { untagged })).next();
}

const GAVE_UP = new WeakSet<ImapFlow>();

/** Past MAX_LIST_LINES: the connection is closed (nothing else stops a server talking), the call says why. */
function tooMany(client: ImapFlow): void {
  if (GAVE_UP.has(client)) return;
  GAVE_UP.add(client);
  client.close();
}

function giveUpReason(client: ImapFlow): MailError | null {
  if (!GAVE_UP.has(client)) return null;
  return new MailError("protocol", `The mail server lists more than ${MAX_LIST_LINES.toLocaleString("en")} folders, more than this server reads, so it stopped listing them. Name a folder by its path instead.`);
}

const rejected = (err: unknown) => (err as { responseStatus?: string })?.responseStatus === "BAD" || (err as { responseStatus?: string })?.responseStatus === "NO";

/** LSUB (RFC 3501 §6.3.9) marks the kept folders subscribed; a server that refuses it leaves them all subscribed, as imapflow does. */
async function subscribe(h: Helpers, exec: Exec, client: ImapFlow, byPath: Map<string, ListResponse>, args: unknown[]): Promise<void> {
  let lines = 0;
  try {
    await run(exec, "LSUB", args, {
      LSUB: (u) => {
        if (++lines > MAX_LIST_LINES) return tooMany(client);
        const path = pathOf(h, client, u.attributes?.[2]);
        const entry = path === null ? undefined : byPath.get(path);
        if (entry) entry.subscribed = true;
      },
    });
  } catch (err) {
    if (!rejected(err)) throw giveUpReason(client) ?? err;
    for (const entry of byPath.values()) if (!entry.flags.has("\\NonExistent")) entry.subscribed = true;
  }
  const inbox = byPath.get("INBOX");
  if (inbox) inbox.subscribed = true;
}

function pathOf(h: Helpers, client: ImapFlow, attribute: Attribute | Attribute[] | undefined): string | null {
  if (!attribute || Array.isArray(attribute) || attribute.value === undefined || attribute.value === null) return null;
  return h.normalizePath(client, h.decodePath(client, String(attribute.value)));
}

/** One LIST line as imapflow's list() would give it (path decoded from modified UTF-7, flags, name, parent). */
function toEntry(h: Helpers, client: ImapFlow, u: Untagged): ListResponse | null {
  const [flagList, delimiterAttr, nameAttr] = u.attributes ?? [];
  const raw = nameAttr && !Array.isArray(nameAttr) && nameAttr.value != null ? String(nameAttr.value) : null;
  if (raw === null) return null;
  const delimiter = delimiterAttr && !Array.isArray(delimiterAttr) && typeof delimiterAttr.value === "string" ? delimiterAttr.value : "";
  let path = h.normalizePath(client, h.decodePath(client, raw));
  if (delimiter && path.startsWith(delimiter)) path = path.slice(1);
  const flags = new Set(h.getStringList(flagList));
  if (flags.has("\\NonExistent")) flags.add("\\Noselect"); // RFC 5258 §3: \NonExistent implies \Noselect
  const parent = delimiter ? path.split(delimiter) : [path];
  const name = parent.pop() ?? path;
  return { path, pathAsListed: raw, name, delimiter, parent, parentPath: parent.join(delimiter), flags, listed: true, subscribed: false } as ListResponse;
}

function statusOf(list: Attribute | Attribute[] | undefined): { messages?: number; unseen?: number } {
  const out: { messages?: number; unseen?: number } = {};
  if (!Array.isArray(list)) return out;
  for (let i = 0; i + 1 < list.length; i += 2) {
    const key = String(list[i]?.value ?? "").toUpperCase();
    const value = Number(list[i + 1]?.value);
    if (!Number.isFinite(value)) continue;
    if (key === "MESSAGES") out.messages = value;
    if (key === "UNSEEN") out.unseen = value;
  }
  return out;
}

// Which folder holds each special use: the server's RFC 6154 attribute first, then imapflow's
// guesses from well-known names; each use goes to one folder, the shallowest first.
const SOURCE_ORDER = ["extension", "name", "name-guess"];

function assignSpecialUse(h: Helpers, client: ImapFlow, folders: ListResponse[]): ListResponse[] {
  const reports = h.hasCapability(client, "SPECIAL-USE") || client.capabilities.has("XLIST");
  const candidates = folders.flatMap((entry) => {
    if (entry.path.toUpperCase() === "INBOX" && !entry.flags.has("\\NonExistent")) return [{ entry, flag: "\\Inbox", source: "name" }];
    const { flag, source } = h.specialUse(reports, entry);
    return flag && source ? [{ entry, flag, source }] : [];
  });
  candidates.sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source) ||
    a.entry.parent.length - b.entry.parent.length || a.entry.path.localeCompare(b.entry.path));
  const taken = new Set<string>();
  for (const { entry, flag, source } of candidates) {
    if (taken.has(flag) || entry.specialUse) continue;
    entry.specialUse = flag;
    entry.specialUseSource = (source === "name-guess" ? "name" : source) as ListResponse["specialUseSource"];
    taken.add(flag);
  }
  return folders;
}

// As imapflow orders them: special-use folders first (INBOX, then Sent, Drafts…), then by path.
const USE_ORDER = ["\\Inbox", "\\Flagged", "\\Sent", "\\Drafts", "\\All", "\\Archive", "\\Junk", "\\Trash"];

function sorted(folders: ListResponse[]): ListResponse[] {
  return folders.sort((a, b) => {
    if (a.specialUse && b.specialUse) return USE_ORDER.indexOf(a.specialUse) - USE_ORDER.indexOf(b.specialUse);
    if (a.specialUse || b.specialUse) return a.specialUse ? -1 : 1;
    const x = [...a.parent, a.name];
    const y = [...b.parent, b.name];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]!.localeCompare(y[i] ?? "");
    return a.path.localeCompare(b.path);
  });
}
