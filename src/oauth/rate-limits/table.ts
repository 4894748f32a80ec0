// Every rate limit of the unauthenticated endpoints, in one table (docs/oauth.md §5): the bucket
// name (it keys the events in the store, so every instance on one store counts in the same ones;
// renaming one starts its count afresh) → at most `max` events per key in a sliding `windowMs`.
// The use cases get limiters built from this table (rate-limit.ts storeLimiters), and the one purge
// (purge.ts) forgets each bucket's events once they leave its window. Caps that are not rates (live
// logins at once, pending requests held, registered clients) stay with their use case.
import type { Window } from "../../store/limits.ts";

const MINUTE = 60_000;

export const LIMITS = {
  /**
   * Failed mail-server logins per client address, per mailbox address and per login actually tried
   * (connectKeys). Only rejected logins count; guessing a mailbox password through this server is
   * what it stops. Also lets anyone hold one address from connecting for 15 minutes: the usual
   * trade-off (docs/oauth.md §5).
   */
  "connect-failures": { max: 5, windowMs: 15 * MINUTE },
  /**
   * Every attempt that reaches a mail server, per client address, whatever its outcome: each opens
   * a connection to a host the visitor chose, so the form must not be a port scanner or a
   * connection flood (docs/oauth.md §6.3).
   */
  "connect-attempts": { max: 30, windowMs: 15 * MINUTE },
  /**
   * GET /oauth/authorize per client address: each stores a pending request for 10 minutes. A person
   * needs one or two; 30 leaves room for retries and several people behind one NAT.
   */
  authorize: { max: 30, windowMs: MINUTE },
  /**
   * Failed client authentications at /oauth/token per client address: a 32+ character secret cannot
   * be guessed anyway, so this bounds the noise and work, loose enough that a client sharing an
   * address with a misconfigured one is rarely refused.
   */
  "token-client-auth": { max: 10, windowMs: 15 * MINUTE },
  /**
   * Client metadata documents fetched for GET /oauth/authorize per client address (docs/oauth.md §11):
   * each opens a connection to a URL the visitor chose. A cached document costs nothing and is not counted.
   */
  "document-fetch": { max: 10, windowMs: MINUTE },
  /** POST /oauth/register per client address, every request counted (docs/oauth.md §9). */
  register: { max: 10, windowMs: 60 * MINUTE },
} as const satisfies Record<string, Window>;

export type LimitName = keyof typeof LIMITS;

export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];
