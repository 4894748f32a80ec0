// GET / (docs/design.md §3): the service is running, its version, the MCP URL, how to connect each client
// (./connect-guide.ts, never the client secret) and where /health is. Every value is escaped.
import { Html } from "@kitajs/html";
import type { ConnectGuide } from "./connect-guide.ts";
import { Layout } from "./layout.tsx";

export interface FrontDoorProps {
  nonce: string;
  version: string;
  healthUrl: string;
  guide: ConnectGuide;
}

/** A guide line: `code` spans become <code>, everything escaped. */
function Line({ text }: { text: string }): string {
  return text.split("`").map((part, i) => (i % 2 ? `<code>${Html.escapeHtml(part)}</code>` : Html.escapeHtml(part))).join("");
}

export function FrontDoor({ nonce, version, healthUrl, guide }: FrontDoorProps): string {
  return Layout({
    title: "mailbox-mcp",
    nonce,
    children: (
      <div class="card">
        <h1>mailbox-mcp is running</h1>
        <p>An MCP server for your own mailbox (IMAP and SMTP), version <span safe>{version}</span>.</p>
        <dl class="facts">
          <dt>MCP server URL</dt><dd><code safe>{guide.mcpUrl}</code></dd>
          <dt>OAuth client ID</dt><dd><code safe>{guide.clientId}</code></dd>
          <dt>OAuth client secret</dt><dd><Line text={guide.secret} /></dd>
          <dt>Your apps</dt><dd><a href="/account">See and revoke the apps connected to your mailbox</a></dd>
          <dt>Health</dt><dd><a href={Html.escapeHtml(healthUrl)}><code safe>{healthUrl}</code></a></dd>
          <dt>Sign in at</dt><dd safe>{guide.signIn.providers.length ? guide.signIn.providers.join("; ") : "no provider: app passwords only"}</dd>
        </dl>
        <p class="hint" safe>{guide.note}</p>
        <p class="hint"><Line text={guide.signIn.note} /></p>
        {guide.clients.map((c) => (
          <section>
            <h2><Line text={c.title} /></h2>
            <ol>{c.steps.map((s) => <li><Line text={s} /></li>)}</ol>
          </section>
        ))}
        <p class="hint">Whoever runs this server can list and revoke access with <code>mailbox-mcp grants</code>{" and "}
          <code>mailbox-mcp revoke</code>, and see what apps did with <code>mailbox-mcp activity</code>.</p>
      </div>
    ) as string,
  });
}
