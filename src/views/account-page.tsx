// The owner's page (docs/owner.md §7): this mailbox's connections, their actions as plain form
// POSTs (each asks first: ./account-confirm.tsx), its activity, addresses (./account-identities.tsx) and held drafts (./account-held.tsx). Every value is
// escaped (`safe`, or escapeHtml in attributes); an app's name is what it declared, marked unchecked.
import { Html } from "@kitajs/html";
import { SEND_POLICIES, SEND_POLICY_LABELS } from "../send-policy.ts";
import type { AccountData, ConnectionWithCaps, OwnerActivityRow } from "../oauth/account/page-data.ts";
import { redirectHost } from "../oauth/protocol/redirects.ts";
import { declaredName } from "./declared-name.ts";
import { Layout } from "./layout.tsx";
import { AccountIdentities } from "./account-identities.tsx";
import { HeldDrafts } from "./account-held.tsx";

const esc = (v: string): string => Html.escapeHtml(v);
const when = (ms: number | null): string => (ms === null ? "never" : new Date(ms).toISOString().replace("T", " ").slice(0, 16) + " UTC");
const accessOf = (scope: string): string => (scope.split(" ").includes("email:write") ? "read and write" : "read only");

/** The app's own name, or its client id: either way written by the app, not checked here. */
export const appName = (c: Pick<ConnectionWithCaps, "clientName" | "clientId">): string => declaredName(c.clientName ?? c.clientId ?? "the configured client");

function Hidden({ csrf, grant }: { csrf: string; grant?: string }): string {
  return (<>
    <input type="hidden" name="csrf_token" value={esc(csrf)} />
    {grant ? <input type="hidden" name="grant" value={esc(grant)} /> : ""}
  </>) as string;
}

function ConnectionCard({ c, csrf }: { c: ConnectionWithCaps; csrf: string }): string {
  const host = c.redirectUri ? redirectHost(c.redirectUri) : "unknown";
  return (
    <section class="conn" aria-label={esc(`Connection of ${appName(c)}`)}>
      <h3><q class="declared" safe>{appName(c)}</q> <span class="opt">(name not checked by this server)</span></h3>
      <dl class="facts">
        <dt>Signs in to</dt><dd safe>{host}</dd>
        <dt>Access</dt><dd safe>{accessOf(c.scope)}</dd>
        <dt>Sending</dt><dd safe>{SEND_POLICY_LABELS[c.sendPolicy]}</dd>
        <dt>Granted</dt><dd safe>{when(c.createdAt)}</dd>
        <dt>Last used</dt><dd safe>{when(c.lastUsedAt)}</dd>
        <dt>Sent</dt><dd safe>{c.caps.map((k) => `${k.used} of ${k.max} in the last ${k.window === "hour" ? "hour" : "24 hours"}`).join(", ")}</dd>
      </dl>
      <form method="post" action="/account/send-policy">
        <Hidden csrf={csrf} grant={c.grantId} />
        <label for={`send-${c.grantId}`}>When may this app send?</label>
        <select id={`send-${c.grantId}`} name="send">
          {SEND_POLICIES.map((p) => <option value={p} selected={p === c.sendPolicy} safe>{SEND_POLICY_LABELS[p]}</option>)}
        </select>
        <button type="submit" class="secondary">Change sending</button>
      </form>
      <form method="post" action="/account/revoke">
        <Hidden csrf={csrf} grant={c.grantId} />
        <button type="submit" class="danger">Revoke this app's access</button>
      </form>
      <p><a href={esc(`/account?grant=${c.grantId}#activity`)}>Show only this app's activity</a></p>
    </section>
  ) as string;
}

function describe(r: OwnerActivityRow): string {
  const d = r.details;
  if (!d) return "details cannot be read";
  const parts = [
    d.folder ? `folder ${d.folder}` : "", d.destination ? `to folder ${d.destination}` : "",
    d.recipients?.length ? `to ${d.recipients.join(", ")}` : "", d.message_id ? `Message-ID ${d.message_id}` : "",
    d.decision ? d.decision.replaceAll("_", " ") : "", d.send_policy ? `sending: ${d.send_policy}` : "", d.error ? `error: ${d.error}` : "",
  ];
  return parts.filter(Boolean).join("; ");
}

function ActivityList({ data, names }: { data: AccountData; names: Map<string, string> }): string {
  const { rows, more } = data.activity;
  const q = (page: number) => `/account?${data.filter ? `grant=${data.filter}&` : ""}page=${page}#activity`;
  return (
    <section id="activity">
      <h2>Activity, last 90 days</h2>
      {data.filter ? <p><a href="/account#activity">Show every app</a></p> : ""}
      {rows.length === 0 ? <p class="hint">Nothing recorded.</p> : ""}
      <ul class="log">
        {rows.map((r) => (
          <li>
            <strong safe>{when(r.at)}</strong> <span safe>{r.tool.startsWith("owner:") ? "you (this page)" : names.get(r.grantId) ?? `connection ${r.grantId.slice(0, 8)}`}</span>
            {" — "}<code safe>{r.tool}</code> <span safe>{r.outcome}</span>
            <br /><span class="hint" safe>{describe(r)}</span>
          </li>
        ))}
      </ul>
      <p>{data.page > 0 ? <a href={esc(q(data.page - 1))}>Newer</a> : ""} {more ? <a href={esc(q(data.page + 1))}>Older</a> : ""}</p>
    </section>
  ) as string;
}

export function AccountPage({ nonce, csrf, data, notice }: { nonce: string; csrf: string; data: AccountData; notice?: string }): string {
  const names = new Map(data.connections.map((c) => [c.grantId, appName(c)]));
  return (
    <Layout title="Your mailbox and its apps" nonce={nonce}>
      <div class="card">
        <h1>Apps connected to <span safe>{data.email}</span></h1>
        {notice ? <p class="who" role="status" safe>{notice}</p> : ""}
        {data.connections.length === 0 ? <p>No app holds access to this mailbox.</p> : ""}
        {data.connections.map((c) => <ConnectionCard c={c} csrf={csrf} />)}
        {data.connections.length > 1 ? (
          <form method="post" action="/account/revoke-all"><Hidden csrf={csrf} /><button type="submit" class="danger">Revoke every app</button></form>
        ) : ""}
        <AccountIdentities csrf={csrf} ids={data.identities} />
        <HeldDrafts held={data.held} csrf={csrf} />
        <ActivityList data={data} names={names} />
        <form method="post" action="/account/sign-out"><Hidden csrf={csrf} /><input type="hidden" name="confirm" value="1" />
          <button type="submit" class="secondary">Sign out</button></form>
      </div>
    </Layout>
  ) as string;
}
