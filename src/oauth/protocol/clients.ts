// Who is asking: the one configured client (docs/contract.md §14) and, with MAILBOX_MCP_OPEN_REGISTRATION, the clients
// that registered themselves (RFC 7591; docs/oauth.md §9). Used by authorize (client and redirect URI),
// the setup form (whom to name) and the token endpoint (client authentication).
import type { Config } from "../../config.ts";
import { hashSecret, safeEqual } from "../../store/crypto.ts";
import type { ClientAuthMethod, ClientStore, RegisteredClient } from "../../store/clients.ts";
import {
  allowedRedirectUris, isAllowedRedirect, loopbackRedirect, sameLoopbackAnyPortOrName, sameLoopbackIgnoringPort,
} from "./redirects.ts";

export interface OAuthClient {
  id: string;
  /** False for the configured client, true for one that registered itself. */
  registered: boolean;
  /** A registered client's self-declared client_name (never verified); null for the configured client. */
  name: string | null;
  authMethod: ClientAuthMethod;
  /** What a registered client registered; empty for the configured client (it uses the allowlist). */
  redirectUris: string[];
}

export class ClientRegistry {
  /** The contract's allowlist (docs/contract.md §2.5) plus MAILBOX_MCP_EXTRA_REDIRECT_URIS (exact strings). */
  readonly allowed: Set<string>;
  /** The loopback entries of MAILBOX_MCP_EXTRA_REDIRECT_URIS: the configured client may use them on any port. */
  private readonly extraLoopback: string[];
  private readonly configured: OAuthClient;

  constructor(
    private readonly config: Pick<Config, "clientId" | "clientSecret" | "clientHosts" | "extraRedirectUris" | "openRegistration">,
    /** Registered clients; consulted only while registration is open. */
    readonly store: ClientStore,
  ) {
    this.allowed = allowedRedirectUris(config);
    this.extraLoopback = config.extraRedirectUris.filter((uri) => loopbackRedirect(uri) !== null);
    this.configured = { id: config.clientId, registered: false, name: null, authMethod: "client_secret_post", redirectUris: [] };
  }

  get openRegistration(): boolean {
    return this.config.openRegistration;
  }

  /** The configured client (compared in constant time) or, while registration is open, a live registered one. */
  async find(clientId: string): Promise<OAuthClient | null> {
    if (safeEqual(clientId, this.config.clientId)) return this.configured;
    if (!this.config.openRegistration) return null;
    const row = await this.store.find(clientId);
    return row ? toClient(row) : null;
  }

  /** A redirect URI a client may register: on the allowlist, or a loopback URI with any port (RFC 8252 §7.3). */
  registrable(uri: string): boolean {
    return isAllowedRedirect(this.allowed, uri) || loopbackRedirect(uri) !== null;
  }

  /**
   * Authorize: the configured client's redirect URI must be on the allowlist exactly (docs/contract.md §2.5), or match
   * a loopback entry the operator added on any port and loopback name (docs/design.md §3, RFC 8252 §7.3);
   * a registered client's must be one it registered — exactly, or for loopback with any port — and
   * still registrable today (the operator may have shortened the allowlist since).
   */
  allowsRedirect(client: OAuthClient, uri: string): boolean {
    if (!client.registered) {
      return isAllowedRedirect(this.allowed, uri) || this.extraLoopback.some((listed) => sameLoopbackAnyPortOrName(listed, uri));
    }
    if (!this.registrable(uri)) return false;
    return client.redirectUris.some((r) => r === uri || sameLoopbackIgnoringPort(r, uri));
  }

  /**
   * Token endpoint client authentication (RFC 6749 §2.3.1, client_secret_post). The configured client's id
   * and secret are both compared in constant time, always. A public registered client ("none") has no
   * secret to check: PKCE is its proof (RFC 7636, RFC 8252 §8.1). Null means invalid_client.
   */
  async authenticate(clientId: string | undefined, secret: string | undefined): Promise<OAuthClient | null> {
    const idOk = safeEqual(clientId ?? "", this.config.clientId);
    const secretOk = safeEqual(secret ?? "", this.config.clientSecret);
    if (idOk) return clientId && secret && secretOk ? this.configured : null;
    if (!clientId || !this.config.openRegistration) return null;
    const row = await this.store.find(clientId);
    if (!row) return null;
    if (row.authMethod === "none") return toClient(row);
    const given = hashSecret(secret ?? "");
    return secret && row.secretHash && safeEqual(given, row.secretHash) ? toClient(row) : null;
  }
}

function toClient(row: RegisteredClient): OAuthClient {
  return { id: row.id, registered: true, name: row.name, authMethod: row.authMethod, redirectUris: row.redirectUris };
}
