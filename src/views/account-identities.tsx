// The owner's page's addresses and signatures (docs/owner.md §7): the setup form's block (the
// addresses to send as and the login address's signature), then one form per listed address for its
// own signature. Set by the person only; every value escaped.
import { Html } from "@kitajs/html";
import type { AccountData } from "../oauth/account/page-data.ts";
import { IdentityFields } from "./identity-fields.tsx";

const esc = (v: string): string => Html.escapeHtml(v);

function SignatureForm({ csrf, address, label, signature, n }: { csrf: string; address: string; label: string; signature: string; n: number }): string {
  return (
    <form method="post" action="/account/signature">
      <input type="hidden" name="csrf_token" value={esc(csrf)} />
      <input type="hidden" name="address" value={esc(address)} />
      <label for={`signature-${n}`} safe>{`Signature of ${label}`}</label>
      <textarea id={`signature-${n}`} name="signature" rows="3">{esc(signature)}</textarea>
      <button type="submit" class="secondary">Save this signature</button>
    </form>
  ) as string;
}

export function AccountIdentities({ csrf, ids }: { csrf: string; ids: AccountData["identities"] }): string {
  return (
    <section id="identities-section">
      <h2>Addresses and signatures</h2>
      <form method="post" action="/account/identities">
        <input type="hidden" name="csrf_token" value={esc(csrf)} />
        <IdentityFields sendAs={ids.sendAs} signature={ids.signature} />
        <button type="submit" class="secondary">Save addresses and signature</button>
      </form>
      {ids.others.length ? <p class="hint">Each address signs with its own signature (Markdown allowed; blank for none), added
        below the text of messages sent from it, replies from it included.</p> : ""}
      {ids.others.map((o, n) => <SignatureForm csrf={csrf} address={o.address} label={o.label} signature={o.signature} n={n} />)}
    </section>
  ) as string;
}
