// The setup form (docs/design.md §3): provider, email, app password, and a custom-server fieldset.
// Works without JavaScript: the custom fieldset is always in the page and every provider's
// app-password page is listed in a <details>. The small script (allowed by the CSP nonce) only hides
// the custom fields for presets, shows the chosen provider's link and a "Connecting…" hint.
// Every reflected value is escaped: text through `safe` children, attribute values through attr(), because
// kitajs itself escapes only the double quote in attributes (docs/oauth.md §7).
import type { ConnectFields } from "../oauth/setup/connect-form.ts";
import { Html } from "@kitajs/html";
import { PROVIDERS, findProvider, type Provider } from "../mail/providers/presets.ts";
import type { Access } from "../oauth/setup/access.ts";
import { AccessChoice } from "./access-choice.tsx";
import { IdentityFields } from "./identity-fields.tsx";
import { declaredName } from "./declared-name.ts";
import { Layout } from "./layout.tsx";
import { AnotherChoice, ConnectedSoFar } from "./connected-mailboxes.tsx";
import { MAX_MAILBOXES } from "../oauth/setup/several.ts";
import { SignInButtons, SignInOptions, type SignInChoice } from "./sign-in-choice.tsx";

/** What the form shows back after a failed submit: the fields, never the password or the ids. */
export type SetupFormValues = Omit<ConnectFields, "request_id" | "csrf_token" | "password">;

/**
 * Who is asking: the configured client; one that registered itself (RFC 7591) under a name nobody verified;
 * or one identified by a client metadata document, vouched for by the host that serves it (docs/oauth.md §11).
 */
export type AskingClient =
  | { kind: "configured" }
  | { kind: "registered"; name: string | null }
  | { kind: "document"; name: string | null; documentHost: string };

export interface SetupFormProps {
  nonce: string;
  requestId: string;
  csrfToken: string;
  /** Host of the validated redirect_uri: the app the person is authorizing. */
  redirectHost: string;
  client: AskingClient;
  /** The widest access the request allows: read only when the client asked for email:read alone. */
  widestAccess: Access;
  values: SetupFormValues;
  error?: string;
  /** OAuth mail providers configured on this server: signed in at the provider, not with a password. */
  signIn?: SignInChoice[];
  /** Addresses of the mailboxes this request has verified so far ("add another mailbox"). */
  connected?: string[];
}

/** Full HTML escaping for attribute values (& < > " '); kitajs then leaves them alone. */
const attr = (value: string): string => Html.escapeHtml(value);

// A provider with data-signin (an OAuth one) hides the password and the custom server, and the
// button becomes "Sign in with …"; the no-JavaScript sign-in buttons are then not needed.
const SCRIPT = `(function(){
var f=document.getElementById("setup"),s=document.getElementById("provider"),c=document.getElementById("custom"),
h=document.getElementById("app-password-help"),b=document.getElementById("connect"),w=document.getElementById("connecting"),
p=document.getElementById("password-block"),pw=document.getElementById("password"),e=document.getElementById("email"),
g=document.getElementById("signin-buttons");if(g)g.hidden=true;
function show(){var o=s.options[s.selectedIndex],d=o?o.dataset:{},si=!!d.signin;c.hidden=s.value!=="custom";h.textContent="";
p.hidden=si;pw.required=!si;e.required=!si;b.textContent=si?"Sign in with "+d.signin:"Connect mailbox";
if(d.url){h.append("Create an app password for "+o.text+": ");var a=document.createElement("a");a.href=d.url;a.target="_blank";
a.rel="noopener noreferrer";a.textContent="open "+o.text+"'s app password page";h.append(a,". ")}
if(d.notes)h.append(d.notes)}
s.addEventListener("change",show);show();
f.addEventListener("submit",function(){b.disabled=true;b.textContent="Connecting\\u2026";w.hidden=false});
})();`;

function SecuritySelect({ id, name, value }: { id: string; name: string; value?: string }): string {
  const v = value || "tls";
  return (
    <select id={id} name={name}>
      <option value="tls" selected={v === "tls"}>TLS</option>
      <option value="starttls" selected={v === "starttls"}>STARTTLS</option>
      <option value="none" selected={v === "none"}>None (unencrypted)</option>
    </select>
  ) as string;
}

function ServerRow({ kind, v }: { kind: "imap" | "smtp"; v: SetupFormValues }): string {
  const label = kind.toUpperCase();
  const host = kind === "imap" ? v.imap_host : v.smtp_host;
  const port = (kind === "imap" ? v.imap_port : v.smtp_port) || (kind === "imap" ? "993" : "465");
  const security = kind === "imap" ? v.imap_security : v.smtp_security;
  return (
    <div>
      <label for={`${kind}_host`}>{label} server</label>
      <input id={`${kind}_host`} name={`${kind}_host`} type="text" value={attr(host ?? "")} placeholder={`${kind}.example.com`}
        autocomplete="off" autocapitalize="off" spellcheck="false" />
      <div class="row">
        <div class="port">
          <label for={`${kind}_port`}>{label} port</label>
          <input id={`${kind}_port`} name={`${kind}_port`} type="text" inputmode="numeric" value={attr(port)} />
        </div>
        <div>
          <label for={`${kind}_security`}>{label} security</label>
          <SecuritySelect id={`${kind}_security`} name={`${kind}_security`} value={security} />
        </div>
      </div>
    </div>
  ) as string;
}

export function ProviderOption({ p, selected }: { p: Provider; selected: boolean }): string {
  return (
    <option value={p.id} selected={selected} data-url={attr(p.app_password_url ?? "")} data-notes={attr(p.notes)} safe>
      {p.name}
    </option>
  ) as string;
}

function HelpList(): string {
  return (
    <details>
      <summary>Where do I get an app password?</summary>
      <ul>
        {PROVIDERS.filter((p) => p.id !== "custom").map((p) => (
          <li>
            {p.app_password_url ? <a href={attr(p.app_password_url)} target="_blank" rel="noopener noreferrer" safe>{p.name}</a> : <strong safe>{p.name}</strong>}
            {": "}<span safe>{p.notes}</span>
          </li>
        ))}
      </ul>
    </details>
  ) as string;
}

export function ChosenHelp({ provider }: { provider?: string }): string {
  const p = provider ? findProvider(provider) : undefined;
  if (!p || !p.app_password_url) return (<p id="app-password-help" class="hint" safe>{p?.notes ?? ""}</p>) as string;
  return (
    <p id="app-password-help" class="hint">
      Create an app password for <span safe>{p.name}</span>:{" "}
      <a href={attr(p.app_password_url)} target="_blank" rel="noopener noreferrer">open its app password page</a>.{" "}
      <span safe>{p.notes}</span>
    </p>
  ) as string;
}

export function CustomServer({ v }: { v: SetupFormValues }): string {
  return (
    <fieldset id="custom">
      <legend>Custom server (only for “Other”)</legend>
      <ServerRow kind="imap" v={v} />
      <ServerRow kind="smtp" v={v} />
      <label for="username">Login name <span class="opt">(if it is not your email address)</span></label>
      <input id="username" name="username" type="text" value={attr(v.username ?? "")} autocomplete="username"
        autocapitalize="off" spellcheck="false" />
    </fieldset>
  ) as string;
}

function Fields({ requestId, csrfToken, widestAccess, values: v, signIn = [], connected = [] }: SetupFormProps): string {
  return (
    <form id="setup" method="post" action="/oauth/connect">
      <input type="hidden" name="request_id" value={attr(requestId)} />
      <input type="hidden" name="csrf_token" value={attr(csrfToken)} />
      <label for="provider">Email provider</label>
      <select id="provider" name="provider" required>
        <option value="">Choose your provider…</option>
        {PROVIDERS.map((p) => <ProviderOption p={p} selected={p.id === v.provider} />)}
        <SignInOptions choices={signIn} selected={v.provider} />
      </select>
      <ChosenHelp provider={v.provider} />
      <HelpList />
      <label for="email">Email address</label>
      <input id="email" name="email" type="email" required value={attr(v.email ?? "")} autocomplete="email"
        autocapitalize="off" spellcheck="false" />
      <div id="password-block">
        <label for="password">App password</label>
        <input id="password" name="password" type="password" required autocomplete="current-password" />
        <p class="hint">An app-specific password, not your normal password. It is checked with your mail server now
          and stored encrypted; revoking the app's access deletes it.</p>
      </div>
      <CustomServer v={v} />
      <AccessChoice widest={widestAccess} chosen={v.access} send={v.send} />
      <IdentityFields sendAs={v.send_as} signature={v.signature} />
      <AnotherChoice max={MAX_MAILBOXES} count={connected.length} />
      <button id="connect" type="submit">Connect mailbox</button>
      <p class="hint">Afterwards, see what the app does and take its access back at <a href="/account" target="_blank"
        rel="noopener noreferrer">your mailbox's apps page</a>.</p>
      <SignInButtons choices={signIn} />
      <p id="connecting" class="hint" role="status" hidden>Connecting… checking your login with your mail server
        (this can take up to 15 seconds).</p>
    </form>
  ) as string;
}

const asksTo = (asks: string) => `is asking to ${asks} in your mailbox. Only continue if you started this from that app.`;

/**
 * Names who is asking. The page's own sentence names only the redirect host, the thing the person can
 * rely on: the code goes there. A registered client's name is whatever it sent, so it is never part of
 * that sentence: it comes after, in its own line and box, quoted by the page, its own quotation marks
 * neutralised and cut to 64 characters (./declared-name.ts), and said to be unchecked — so a name
 * written to look like the page ("returning to claude.ai … ✓ Verified app") cannot pass for it.
 * A client named by its metadata document is vouched for by the host that serves the document, which
 * this server fetched: that host goes into the page's own sentence, as the one to trust
 * (docs/oauth.md §11); the name it declares is shown like a registered client's.
 */
function Who({ client, redirectHost, asks }: Pick<SetupFormProps, "client" | "redirectHost"> & { asks: string }): string {
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(redirectHost)
    ? <span class="opt"> (an app on this computer)</span> : "";
  const sentence = <p class="who"><strong class="host" safe>{redirectHost}</strong>{local} {asksTo(asks)}</p>;
  if (client.kind === "configured") return sentence as string;
  const declared = client.name
    ? <>The app calls itself <q class="declared" safe>{declaredName(client.name)}</q>.</>
    : "The app gave no name.";
  if (client.kind === "document") {
    return (
      <>
        {sentence}
        <p class="who">The app is published by <strong class="host" safe>{client.documentHost}</strong>, which serves its
          client metadata document. Continue only if you know and trust <span safe>{client.documentHost}</span>.</p>
        <p class="declared-line">{declared} <span class="opt">The name is written by that host; the address above is where
          the sign-in returns.</span></p>
      </>
    ) as string;
  }
  return (
    <>
      {sentence}
      <p class="declared-line">{declared} <span class="opt">Apps register themselves here under any name they like;
        this server has not checked it. Go by the address above.</span></p>
    </>
  ) as string;
}

export function SetupForm(props: SetupFormProps): string {
  const { nonce, redirectHost, error } = props;
  const asks = props.widestAccess === "read" ? "read and search email" : "read, search, draft and send email";
  return Layout({
    title: "Connect your mailbox",
    nonce,
    children: (
      <div class="card">
        <h1>Connect your mailbox</h1>
        <Who client={props.client} redirectHost={redirectHost} asks={asks} />
        {error ? <p class="error" role="alert" safe>{error}</p> : ""}
        <ConnectedSoFar connected={props.connected ?? []} requestId={props.requestId} csrfToken={props.csrfToken} redirectHost={redirectHost} />
        <Fields {...props} />
        <p class="hint">After connecting you will be sent back to <span safe>{redirectHost}</span>.</p>
      </div>
    ) as string + `<script nonce="${nonce}">${SCRIPT}</script>`,
  });
}
