// What a connect attempt comes to (the setup form, the owner's page's sign-in, a provider sign-in's
// callback): a redirect, a form shown again with a status (docs/design.md §3), or a verified login.
import type { PendingRequest } from "../../store/pending.ts";
import type { SentMark } from "../../sent-mark.ts";

export type ConnectOutcome =
  | { kind: "redirect"; location: string }
  /** To an OAuth mail provider's sign-in; `binding` is the secret of the cookie that ties its callback to this browser. */
  | { kind: "sign_in"; location: string; binding: string }
  | { kind: "expired" }
  | { kind: "forbidden" }
  | { kind: "form"; status: FormStatus; message: string; pending: PendingRequest; retryAfter?: number }
  /** The mailbox was added (`another=1`): the page lists `connected` and offers another or finish (./several.ts). */
  | { kind: "added"; pending: PendingRequest; connected: string[] };

/** A login that succeeded and passed the list: where \Sent stood then, for the grant (src/sent-mark.ts). */
export interface Verified {
  kind: "verified";
  sentMark?: SentMark;
}

/** 403: the mailbox, or the visitor's mail server, is not one this server may connect (docs/oauth.md §10). */
export type FormStatus = 400 | 401 | 403 | 429 | 502 | 503;

export const form = (pending: PendingRequest, status: FormStatus, message: string, retryAfter?: number): ConnectOutcome =>
  ({ kind: "form", status, message, pending, retryAfter });
