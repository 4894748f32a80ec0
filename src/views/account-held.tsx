// The owner's page's list of messages the send gate held as drafts (docs/owner.md §7): subject (as
// kept when held; written by the app, so escaped like every value), recipients, when, where, and a
// "dismiss" form each: the page cannot see the mailbox, so a draft sent or deleted in the mail app
// stays listed until the person takes it off.
import { Html } from "@kitajs/html";
import type { HeldMessage } from "../oauth/account/page-data.ts";

const esc = (v: string): string => Html.escapeHtml(v);
const when = (ms: number): string => new Date(ms).toISOString().replace("T", " ").slice(0, 16) + " UTC";

function HeldItem({ r, csrf }: { r: HeldMessage; csrf: string }): string {
  const d = r.details;
  return (
    <li>
      <strong safe>{r.subject === null ? "(subject not kept)" : `“${r.subject}”`}</strong>{" "}
      <span safe>{`— ${when(r.at)}; to ${d?.recipients?.join(", ") ?? "?"}; in ${d?.folder ?? "Drafts"}; Message-ID ${d?.message_id ?? "?"}`}</span>
      <form method="post" action="/account/dismiss-held">
        <input type="hidden" name="csrf_token" value={esc(csrf)} />
        <input type="hidden" name="held" value={esc(String(r.id))} />
        <button type="submit" class="secondary">Dismiss</button>
      </form>
    </li>
  ) as string;
}

export function HeldDrafts({ held, csrf }: { held: HeldMessage[]; csrf: string }): string {
  return (
    <section id="held">
      <h2>Held as drafts, not sent</h2>
      {held.length === 0 ? <p class="hint">None.</p> : ""}
      <ul class="log">{held.map((r) => <HeldItem r={r} csrf={csrf} />)}</ul>
      <p class="hint">They wait in your Drafts folder: open them in your mail app to send or delete them. A message sent through
        an app connected here leaves this list by itself; one you send or delete in your mail app stays listed (this page cannot
        look into your mailbox), so dismiss it here.</p>
    </section>
  ) as string;
}
