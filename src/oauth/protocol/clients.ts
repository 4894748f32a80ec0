// Who is asking: the one configured client (docs/contract.md §14); with MAILBOX_MCP_OPEN_REGISTRATION, the clients
// that registered themselves (RFC 7591; docs/oauth.md §9); with MAILBOX_MCP_CLIENT_METADATA_DOCUMENTS, clients
// whose client_id is the URL of their metadata document (docs/oauth.md §11). Used by authorize (client and
// redirect URI), the setup form (whom to name) and the token endpoint (client authentication).
import type { Config } from "../../config.ts";
import { hashSecret, safeEqual } from "../../store/crypto.ts";
import type { ClientAuthMethod, ClientStore, RegisteredClient } from "../../store/clients.ts";
import type { AdmitFetch, ClientDocument, ClientDocuments } from "./documents/documents.ts";
import { documentUrl, isDocumentClientId } from "./documents/url.ts";
import {
  allowedRedirectUris, isAllowedRedirect, loopbackRedirect, sameLoopbackAnyPortOrName, sameLoopbackIgnoringPort,
} from "./redirects.ts";

/** The configured client; one that registered itself; one identified by its metadata document. */
export type ClientKind = "configured" | "registered" | "document";

export interface OAuthClient {
  id: string;
  kind: ClientKind;
  /** The client_name it declared itself (never verified); null for the configured client. */
  name: string | null;
  authMethod: ClientAuthMethod;
  /** What a registered client registered or a document lists; empty for the configured client (it uses the allowlist). */
  redirectUris: string[];
}

type RegistryConfig = Pick<Config, "clientId" | "clientSecret" | "clientHosts" | "extraRedirectUris" | "openRegistration">;

export class ClientRegistry {
  /** The contract's allowlist (docs/contract.md §2.5) plus MAILBOX_MCP_EXTRA_REDIRECT_URIS (exact strings). */
  readonly allowed: Set<string>;
  /** The loopback entries of MAILBOX_MCP_EXTRA_REDIRECT_URIS: the configured client may use them on any port. */
  private readonly extraLoopback: string[];
  private readonly configured: OAuthClient;

  constructor(
    private readonly config: RegistryConfig,
    /** Registered clients; consulted only while registration is open. */
    readonly store: ClientStore,
    /** Client metadata documents, or null while they are off. */
    private readonly documents: ClientDocuments | null = null,
  ) {
    this.allowed = allowedRedirectUris(config);
    this.extraLoopback = config.extraRedirectUris.filter((uri) => loopbackRedirect(uri) !== null);
    this.configured = { id: config.clientId, kind: "configured", name: null, authMethod: "client_secret_post", redirectUris: [] };
  }

  get openRegistration(): boolean {
    return this.config.openRegistration;
  }

  get clientMetadataDocuments(): boolean {
    return this.documents !== null;
  }

  /**
   * The configured client (compared in constant time); while documents are on, the client a document URL
   * names (fetched or cached; a document that cannot be used throws a DocumentProblem, 400, saying why);
   * while registration is open, a live registered one. Null: unknown. `admitFetch`: the rate limit of
   * the caller's address, consulted only when a document must be fetched.
   */
  async find(clientId: string, admitFetch?: AdmitFetch): Promise<OAuthClient | null> {
    if (safeEqual(clientId, this.config.clientId)) return this.configured;
    if (this.documents && isDocumentClientId(clientId)) return documentClient(await this.documents.get(clientId, admitFetch));
    if (!this.config.openRegistration) return null;
    const row = await this.store.find(clientId);
    return row ? toClient(row) : null;
  }

  /** Like find(), without fetching a document: for naming the client again on a form shown a second time. */
  async known(clientId: string): Promise<OAuthClient | null> {
    if (this.documents && isDocumentClientId(clientId)) {
      const kept = this.documents.peek(clientId);
      return kept ? documentClient(kept) : { id: clientId, kind: "document", name: null, authMethod: "none", redirectUris: [] };
    }
    return this.find(clientId);
  }

  /** A redirect URI a client may register: on the allowlist, or a loopback URI with any port (RFC 8252 §7.3). */
  registrable(uri: string): boolean {
    return isAllowedRedirect(this.allowed, uri) || loopbackRedirect(uri) !== null;
  }

  /**
   * Authorize. The configured client: the allowlist exactly (docs/contract.md §2.5), or a loopback entry the
   * operator added, on any port and loopback name (docs/design.md §3, RFC 8252 §7.3). A registered client:
   * one it registered — exactly, or for loopback with any port — and still registrable today (the operator
   * may have shortened the allowlist since). A document's client: one its document lists, exactly or for
   * loopback with any port; the document's host vouches for them, and the setup page names that host.
   */
  allowsRedirect(client: OAuthClient, uri: string): boolean {
    if (client.kind === "configured") {
      return isAllowedRedirect(this.allowed, uri) || this.extraLoopback.some((listed) => sameLoopbackAnyPortOrName(listed, uri));
    }
    if (client.kind === "registered" && !this.registrable(uri)) return false;
    return client.redirectUris.some((r) => r === uri || sameLoopbackIgnoringPort(r, uri));
  }

  /**
   * Token endpoint client authentication (RFC 6749 §2.3.1; post or Basic, client-credentials.ts). The configured client's id
   * and secret are both compared in constant time, always. A public client — registered with "none", or
   * named by a document (which cannot carry a secret) — has no secret to check: PKCE is its proof (RFC 7636,
   * RFC 8252 §8.1), and the code must have been issued to this very client_id (token-exchange.ts), after its
   * document was checked at authorize; so the document is not fetched again here. Null means invalid_client.
   */
  async authenticate(clientId: string | undefined, secret: string | undefined): Promise<OAuthClient | null> {
    const idOk = safeEqual(clientId ?? "", this.config.clientId);
    const secretOk = safeEqual(secret ?? "", this.config.clientSecret);
    if (idOk) return clientId && secret && secretOk ? this.configured : null;
    if (!clientId) return null;
    if (this.documents && isDocumentClientId(clientId)) return wellFormedDocumentUrl(clientId) ? this.known(clientId) : null;
    if (!this.config.openRegistration) return null;
    const row = await this.store.find(clientId);
    if (!row) return null;
    if (row.authMethod === "none") return toClient(row);
    const given = hashSecret(secret ?? "");
    return secret && row.secretHash && safeEqual(given, row.secretHash) ? toClient(row) : null;
  }
}

function wellFormedDocumentUrl(clientId: string): boolean {
  try {
    documentUrl(clientId);
    return true;
  } catch {
    return false;
  }
}

function documentClient(doc: ClientDocument): OAuthClient {
  return { id: doc.clientId, kind: "document", name: doc.name, authMethod: "none", redirectUris: doc.redirectUris };
}

function toClient(row: RegisteredClient): OAuthClient {
  return { id: row.id, kind: "registered", name: row.name, authMethod: row.authMethod, redirectUris: row.redirectUris };
}
