// Limits on GET /oauth/authorize (docs/oauth.md §5). Each valid authorize stores a pending request
// for 10 minutes, and the client id and an allowlisted redirect URI are public: without limits
// anyone could fill the table and lock every person, the real one included, out of signing in.
import type { Clock } from "../../clock.ts";
import type { PendingStore } from "../../store/pending.ts";
import { OAuthProblem } from "../protocol/errors.ts";
import type { AdmitFetch } from "../protocol/documents/documents.ts";
import type { Limiters } from "./rate-limit.ts";

/** Pending requests one client may hold at once (each lives 10 minutes). */
export const MAX_PENDING_PER_CLIENT = 50;
/** Pending requests kept at once, across all clients. */
export const MAX_PENDING = 10_000;

export interface AuthorizeLimitDeps {
  /** The store's view of pending requests: counts and the biggest holder. */
  pending: Pick<PendingStore, "count" | "heldBy" | "topHolder" | "dropOldest">;
  /** Authorize requests per client key (limits.ts). */
  limits: Pick<Limiters, "authorize">;
  clock: Clock;
}

/** Seconds until the first of this client's pending requests expires (at least 1). */
function untilFirstExpiry(deps: AuthorizeLimitDeps, firstExpiry: number | null): number {
  return firstExpiry === null ? 60 : Math.max(1, Math.ceil((firstExpiry - deps.clock()) / 1000));
}

/**
 * Whether `clientKey` may store one more pending request: null if so (room is made when the table
 * is full), else the seconds to wait (Retry-After). A full table sheds the biggest holder's oldest
 * request rather than refusing everyone; the biggest holder itself is refused.
 * The rate is reserved atomically across instances; the two caps are counted, then written, so
 * requests in flight at the same moment on several instances may pass them by that many (the rate
 * bounds how many that can be: docs/oauth.md §5).
 */
export async function admitAuthorize(deps: AuthorizeLimitDeps, clientKey: string): Promise<{ retryAfter: number } | null> {
  const slot = await deps.limits.authorize.reserve([clientKey]);
  if ("retryAfter" in slot) return slot;
  const held = await deps.pending.heldBy(clientKey);
  if (held.count >= MAX_PENDING_PER_CLIENT) return { retryAfter: untilFirstExpiry(deps, held.firstExpiry) };
  if ((await deps.pending.count()) < MAX_PENDING) return null;
  const top = await deps.pending.topHolder();
  if (!top || top.clientKey === clientKey || top.count <= held.count) {
    return { retryAfter: untilFirstExpiry(deps, held.firstExpiry) };
  }
  await deps.pending.dropOldest(top.clientKey);
  return null;
}

/**
 * The "document-fetch" limit of one client address, for a client metadata document that is not cached
 * (docs/oauth.md §11): a fetch past it is 429 with Retry-After, like the authorize limit.
 */
export function admitDocumentFetch(limits: Pick<Limiters, "document-fetch">, clientKey: string): AdmitFetch {
  return async () => {
    const slot = await limits["document-fetch"].reserve([clientKey]);
    if ("retryAfter" in slot) {
      throw new OAuthProblem("temporarily_unavailable",
        `Too many client metadata documents were fetched for your network. Wait ${slot.retryAfter} seconds, then try again.`, 429,
        { "retry-after": String(slot.retryAfter) });
    }
  };
}
