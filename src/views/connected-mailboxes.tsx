// The setup form's part for several mailboxes in one connection (docs/design.md §3): the checkbox
// "add another mailbox after this one" (`another=1`), and once one or more are verified, their
// addresses and a "finish" form (no email, no password) that returns to the app with them all.
import { Html } from "@kitajs/html";

const attr = (value: string): string => Html.escapeHtml(value);

/** Inside the connect form. */
export function AnotherChoice({ max, count }: { max: number; count: number }): string {
  if (count + 1 >= max) return "";
  return (
    <label class="check"><input type="checkbox" id="another" name="another" value="1" /> Add another mailbox after this one</label>
  ) as string;
}

/** Above the form: what is connected so far, and how to finish. */
export function ConnectedSoFar({ connected, requestId, csrfToken, redirectHost }: {
  connected: string[]; requestId: string; csrfToken: string; redirectHost: string;
}): string {
  if (!connected.length) return "";
  return (
    <section id="connected" aria-label="Mailboxes connected so far">
      <p>Connected so far:</p>
      <ul>{connected.map((a) => <li class="mailbox" safe>{a}</li>)}</ul>
      <form id="finish" method="post" action="/oauth/connect">
        <input type="hidden" name="request_id" value={attr(requestId)} />
        <input type="hidden" name="csrf_token" value={attr(csrfToken)} />
        <input type="hidden" name="finish" value="1" />
        <button id="finish-button" type="submit">Finish and return to <span safe>{redirectHost}</span></button>
      </form>
      <p class="hint">Or add another mailbox below.</p>
    </section>
  ) as string;
}
