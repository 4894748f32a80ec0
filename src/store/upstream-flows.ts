// Sign-ins sent to an OAuth mail provider from the setup form (docs/design.md §5, migration 10) or the
// owner's page (migration 17): what the callback needs to finish one. Found by the SHA-256 of its `state`
// (our own, 256 random bits, RFC 6749 §10.12), used once, tied to the pending authorization it serves
// (and deleted with it; none for the owner's page) and
// to the browser that started it (the SHA-256 of a cookie secret, RFC 9700 §4.7.1). The PKCE verifier
// and the form's ids are sealed under a key derived from the master key and the state, so the database
// plus the master key reveal neither while the sign-in is under way.
import type { Clock } from "../clock.ts";
import { hashSecret, open, randomHex, safeEqual, seal, wrappingKey } from "./crypto.ts";
import type { Db } from "./db.ts";
import { bytes } from "./values.ts";

/** What the callback needs back; never stored in clear. */
export interface FlowSecrets {
  /** The pending authorization's id and CSRF token: the form can be shown again after a failure. */
  requestId: string;
  csrfToken: string;
  /** PKCE (RFC 7636 §4.1) for the provider's token endpoint. */
  codeVerifier: string;
  /** The form's other fields as submitted (provider, email, access, …): never a password. */
  fields: Record<string, string>;
  /**
   * "account": started by the owner's page (src/oauth/account/provider-start.ts), so the callback opens
   * a page session instead of issuing a grant. Set by the code that starts the sign-in, sealed with the
   * rest; absent for the setup form's sign-ins (and every row sealed before it existed).
   */
  mode?: "account";
}

export interface UpstreamFlow {
  provider: string;
  /** Null for a sign-in of the owner's page: it serves no pending authorization. */
  pendingIdHash: string | null;
  secrets: FlowSecrets;
}

export type TakenFlow = { kind: "found"; flow: UpstreamFlow } | { kind: "unknown" } | { kind: "other_browser" };

const keyFor = (masterKey: Uint8Array, state: string) => wrappingKey(masterKey, `upstream flow\0${state}`);

export class UpstreamFlows {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /**
   * Starts a sign-in for the pending authorization (replacing one it already had), or for the owner's
   * page (`pendingIdHash` null): returns the `state` to send to the provider. `binding`: the secret of
   * the browser's cookie.
   */
  async create(pendingIdHash: string | null, provider: string, binding: string, secrets: FlowSecrets, expiresAt: number): Promise<string> {
    const state = randomHex(32);
    const stateHash = hashSecret(state);
    const sealed = await seal(keyFor(this.masterKey, state), new TextEncoder().encode(JSON.stringify(secrets)), `flow:${stateHash}`);
    await this.db.tx(async (tx) => {
      if (pendingIdHash !== null) await tx`DELETE FROM upstream_flows WHERE pending_id_hash = ${pendingIdHash}`;
      await tx`INSERT INTO upstream_flows (state_hash, pending_id_hash, binding_hash, provider, sealed, expires_at)
        VALUES (${stateHash}, ${pendingIdHash}, ${hashSecret(binding)}, ${provider}, ${sealed}, ${expiresAt})`;
    });
    return state;
  }

  /**
   * The sign-in `state` names, taken (deleted) when `binding` is the browser's that started it. A
   * callback arriving in another browser leaves the row alone: it cannot cancel someone's sign-in.
   */
  async take(state: string, binding: string | null): Promise<TakenFlow> {
    const stateHash = hashSecret(state);
    const [row] = await this.db.q<{ binding_hash: string; provider: string; pending_id_hash: string | null; sealed: unknown }>`
      SELECT binding_hash, provider, pending_id_hash, sealed FROM upstream_flows
       WHERE state_hash = ${stateHash} AND expires_at > ${this.clock()}`;
    if (!row) return { kind: "unknown" };
    if (!binding || !safeEqual(row.binding_hash, hashSecret(binding))) return { kind: "other_browser" };
    const gone = await this.db.q`DELETE FROM upstream_flows WHERE state_hash = ${stateHash} RETURNING state_hash`;
    if (gone.length !== 1) return { kind: "unknown" }; // a second callback raced this one
    const plain = await open(keyFor(this.masterKey, state), bytes(row.sealed), `flow:${stateHash}`);
    const secrets = JSON.parse(new TextDecoder().decode(plain)) as FlowSecrets;
    return { kind: "found", flow: { provider: row.provider, pendingIdHash: row.pending_id_hash, secrets } };
  }

  async purgeExpired(): Promise<void> {
    await this.db.q`DELETE FROM upstream_flows WHERE expires_at <= ${this.clock()}`;
  }
}
