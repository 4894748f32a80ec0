// Client ID Metadata Documents (docs/oauth.md §11), opt-in with MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS:
// the document behind a client_id URL, fetched (src/mail/net/pinned-fetch.ts), checked (./parse.ts) and kept in this
// process for as long as its Cache-Control allows, at most 24 hours. Per instance and in memory: a
// document is public and cheap to fetch again, so instances need not share it.
import type { Clock } from "../../../clock.ts";
import type { Config } from "../../../config.ts";
import type { Resolver } from "../../../mail/net/host-policy.ts";
import { OAuthProblem } from "../errors.ts";
import { FetchProblem, pinnedFetch, type FetchPolicy } from "../../../mail/net/pinned-fetch.ts";
import { DocumentProblem } from "./url.ts";
import { parseClientDocument, type ClientDocument } from "./parse.ts";
import { documentUrl } from "./url.ts";

export type { ClientDocument } from "./parse.ts";

/** Resolves when a fetch may go ahead; throws (an OAuthProblem, 429) when the caller's limit is spent. */
export type AdmitFetch = () => Promise<void>;

/** docs/design.md §3: 5 s, 5 KiB, cached per Cache-Control up to 24 h. */
export const DOCUMENT_TIMEOUT_MS = 5_000;
export const DOCUMENT_MAX_BYTES = 5 * 1024;
export const DOCUMENT_MAX_AGE_MS = 24 * 60 * 60_000;
/** Documents kept at most (the oldest is let go first), and fetches running at once on this instance. */
const MAX_ENTRIES = 1000;
const MAX_FETCHES = 16;

/**
 * How long a response may be reused (RFC 9111 §5.2.2): max-age, capped at 24 h; 0 when it says
 * no-store or no-cache, or gives no max-age (we do not guess a freshness).
 */
export function freshFor(cacheControl: string | null): number {
  const directives = (cacheControl ?? "").toLowerCase().split(",").map((d) => d.trim());
  if (directives.includes("no-store") || directives.includes("no-cache")) return 0;
  const maxAge = directives.map((d) => /^max-age="?(\d+)"?$/.exec(d)?.[1]).find((v) => v !== undefined);
  return maxAge === undefined ? 0 : Math.min(Number(maxAge) * 1000, DOCUMENT_MAX_AGE_MS);
}

interface Entry {
  document: ClientDocument;
  freshUntil: number;
}

export interface DocumentOptions {
  allowPrivateHosts: boolean;
  clock: Clock;
  version: string;
  resolve?: Resolver;
  /** Tests shorten the budget. */
  timeoutMs?: number;
}

export class ClientDocuments {
  private readonly entries = new Map<string, Entry>();
  private readonly fetching = new Map<string, Promise<ClientDocument>>();
  private readonly policy: FetchPolicy;

  constructor(private readonly options: DocumentOptions) {
    this.policy = {
      allowPrivateHosts: options.allowPrivateHosts, resolve: options.resolve, timeoutMs: options.timeoutMs ?? DOCUMENT_TIMEOUT_MS,
      maxBytes: DOCUMENT_MAX_BYTES, userAgent: `mailbox-mcp/${options.version}`,
      what: "The client metadata document", accept: "application/json",
    };
  }

  /**
   * The client a document URL names: from the cache while fresh, else fetched now, once `admit` (the
   * caller's rate limit) lets it. Throws a DocumentProblem (400) saying why not, or what `admit` throws.
   */
  async get(clientId: string, admit: AdmitFetch = async () => {}): Promise<ClientDocument> {
    const url = documentUrl(clientId);
    const ready = this.fresh(clientId) ?? this.fetching.get(clientId); // one fetch per document at a time
    if (ready) return ready;
    if (this.fetching.size >= MAX_FETCHES) {
      throw new OAuthProblem("temporarily_unavailable", "The server is busy fetching other client metadata documents. Try again in a few seconds.", 503, { "retry-after": "5" });
    }
    // The caller's own limit before its fetch can be joined: a fetch others wait on is one already
    // admitted, so an address over its limit never passes its 429 to another that came for the same URL.
    await admit();
    return this.fresh(clientId) ?? this.fetching.get(clientId) ?? this.start(clientId, url);
  }

  private fresh(clientId: string): ClientDocument | null {
    const kept = this.entries.get(clientId);
    return kept && kept.freshUntil > this.options.clock() ? kept.document : null;
  }

  private start(clientId: string, url: URL): Promise<ClientDocument> {
    const fetched = this.fetch(url).finally(() => this.fetching.delete(clientId));
    this.fetching.set(clientId, fetched);
    return fetched;
  }

  /** What is known of a document without fetching (for naming the client on a form shown again); null when nothing is. */
  peek(clientId: string): ClientDocument | null {
    return this.entries.get(clientId)?.document ?? null;
  }

  private async fetch(url: URL): Promise<ClientDocument> {
    const { body, cacheControl } = await pinnedFetch(url, this.policy).catch((err: unknown) => {
      throw err instanceof FetchProblem ? new DocumentProblem(err.message) : err;
    });
    const document = parseClientDocument(url.href, body);
    this.keep(document, cacheControl);
    return document;
  }

  /** Kept while fresh for reuse; a document that may not be stored at all is not kept, even for peek(). */
  private keep(document: ClientDocument, cacheControl: string | null): void {
    if (/(^|,)\s*no-store\s*(,|$)/i.test(cacheControl ?? "")) return;
    this.entries.delete(document.clientId);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(document.clientId, { document, freshUntil: this.options.clock() + freshFor(cacheControl) });
  }
}

/** The documents of a service, or null while MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS is off. */
export function clientDocumentsFor(config: Pick<Config, "clientMetadataDocuments" | "allowPrivateHosts" | "version">, clock: Clock,
  more: Pick<DocumentOptions, "resolve" | "timeoutMs"> = {}): ClientDocuments | null {
  if (!config.clientMetadataDocuments) return null;
  return new ClientDocuments({ allowPrivateHosts: config.allowPrivateHosts, clock, version: config.version, ...more });
}
