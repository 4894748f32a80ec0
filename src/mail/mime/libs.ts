// The libraries that read MIME, loaded on first use (a synchronous require, so their callers stay
// synchronous): an idle server holds none of them. libmime brings its charset tables (iconv-lite,
// encoding-japanese); with mailsplit and libqp they made ~9 MB of an idle server's RSS (docs/performance.md).
import type * as MailSplit from "@zone-eu/mailsplit";
import type LibMime from "libmime";
import type LibQp from "libqp";

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

export const libmime = once(() => require("libmime") as typeof LibMime);
export const libqp = once(() => require("libqp") as typeof LibQp);
export const mailsplit = once(() => require("@zone-eu/mailsplit") as typeof MailSplit);
