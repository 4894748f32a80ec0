// Keeping a signed-in mailbox's access token fresh (docs/design.md §5, docs/oauth-providers.md §3): the
// renewal hook of src/mail/credentials.ts. A call that finds the token due (four fifths of its
// lifetime gone, src/oauth/provider-sign-in/lifetime.ts) renews it once for every caller on this
// instance; across instances the store's per-grant lock lets one refresh and the others read its
// result (src/store/grant-renewal.ts). A rotated refresh token is sealed and stored before the lock
// is released. `invalid_grant` marks the grant lost: tools then say to reconnect, without asking the
// provider again.
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../log.ts";
import { decodeAccount, encodeAccount, type MailAccount, type TokenRenewal } from "../../mail/account.ts";
import type { Renew, RenewAt } from "../../mail/credentials.ts";
import { MailError } from "../../mail/errors.ts";
import { renewalFor, retryLater } from "./lifetime.ts";
import type { OAuthProvider } from "./provider.ts";
import type { OAuthProviders } from "./registry.ts";
import { refreshTokens, type Fetch } from "./token-client.ts";
import { UpstreamError } from "./errors.ts";
import type { GrantRenewals, RenewalOutcome } from "../../store/grant-renewal.ts";

const renewalOf = (a: MailAccount): TokenRenewal | null => (a.auth.kind === "oauth2" ? a.auth.renewal ?? null : null);

const withRenewal = (a: MailAccount, accessToken: string, renewal: TokenRenewal): MailAccount =>
  ({ ...a, auth: { kind: "oauth2", accessToken, ...(a.auth.kind === "oauth2" && a.auth.sasl ? { sasl: a.auth.sasl } : {}), renewal } });

export const lostMessage = (name: string) => `The sign-in at ${name} expired or was revoked: reconnect the mailbox.`;

/** When a signed-in account must be renewed; null for passwords. */
export const signInRenewAt: RenewAt = (account) => renewalOf(account)?.renewAt ?? null;

export class SignInRenewal {
  constructor(
    private readonly renewals: GrantRenewals,
    private readonly providers: OAuthProviders,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly fetcher: Fetch = fetch,
  ) {}

  /** The Renew hook (src/mail/credentials.ts): the account with a token that is good for a while yet. */
  readonly renew: Renew = async (token, account, position) => {
    const p = this.providers.find(account.provider);
    if (!p) throw new MailError("auth", `This server no longer offers sign-in with "${account.provider}": reconnect the mailbox.`);
    let failure: UpstreamError | null = null;
    const result = await this.renewals.renew(token, async (stored, lostAt) => {
      const outcome = await this.decide(p, decodeAccount(stored), lostAt);
      if ("failure" in outcome) failure = outcome.failure;
      return "failure" in outcome ? { kind: "keep" } : outcome;
    }, position);
    if (!result) throw new MailError("auth", "The access token has been revoked or has expired: reconnect the mailbox.");
    if (result.lostAt !== null) throw new MailError("auth", lostMessage(p.name));
    const current = decodeAccount(result.credentials);
    return failure ? this.meanwhile(p, current, failure) : current;
  };

  /** Under the grant's lock, with the account as stored now. */
  private async decide(p: OAuthProvider, stored: MailAccount, lostAt: number | null): Promise<RenewalOutcome | { failure: UpstreamError }> {
    const renewal = renewalOf(stored);
    // Lost already, not a signed-in account, or renewed by someone else while we waited for the lock.
    if (lostAt !== null || !renewal || this.clock() < renewal.renewAt) return { kind: "keep" };
    try {
      const tokens = await refreshTokens(p, renewal.refreshToken, this.fetcher);
      const next = renewalFor(tokens, this.clock(), renewal.refreshToken)!;
      this.log.info("sign-in renewed", { provider: p.id, rotated: tokens.refreshToken !== null && tokens.refreshToken !== renewal.refreshToken });
      return { kind: "replace", credentials: encodeAccount(withRenewal(stored, tokens.accessToken, next)) };
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      this.log.warn("sign-in renewal failed", { provider: p.id, kind: err.kind, code: err.code });
      return err.kind === "lost" ? { kind: "lost" } : { failure: err };
    }
  }

  /**
   * The provider could not renew just now (unreachable, or refusing this server's app): the token
   * still works until it expires, so carry on with it and try again a little later; after that the
   * reason is the tool's answer.
   */
  private meanwhile(p: OAuthProvider, current: MailAccount, failure: UpstreamError): MailAccount {
    const renewal = renewalOf(current);
    const now = this.clock();
    if (renewal && now < renewal.expiresAt && current.auth.kind === "oauth2") {
      return withRenewal(current, current.auth.accessToken, retryLater(renewal, now));
    }
    throw new MailError(failure.kind === "unavailable" ? "unreachable" : "auth", `The sign-in at ${p.name} could not be renewed: ${failure.message}`);
  }
}
