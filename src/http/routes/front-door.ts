// GET / (docs/design.md §3): a small front door. HTML for people; JSON when Accept names application/json
// before text/html. The setup page's security headers and CSP (no script, no form); never the
// client secret.
import { Elysia } from "elysia";
import type { Config } from "../../config.ts";
import { connectGuide } from "../../views/connect-guide.ts";
import { FrontDoor } from "../../views/front-door.tsx";
import { contentSecurityPolicy, newNonce } from "../../views/page.ts";
import { prefersJson } from "../accept.ts";
import { html, jsonNoStore } from "../responses.ts";

/** What the front door shows: where and how to connect (never the client secret, which it is not given). */
export type FrontDoorOptions = Pick<Config, "baseUrl" | "clientId" | "openRegistration" | "clientMetadataDocuments" | "extraRedirectUris" | "version">;

/** `signInProviders`: labels of the OAuth mail providers the setup page offers (src/oauth/provider-sign-in/). */
export function frontDoorRoutes(config: FrontDoorOptions, signInProviders: string[] = []) {
  // Never the secret, nor whose mailboxes are allowed: this page is public.
  const guide = connectGuide({ ...config, clientSecret: null, allowedMailboxes: undefined, signInProviders });
  const healthUrl = `${config.baseUrl}/health`;
  const doc = {
    status: "running", service: "mailbox-mcp", version: config.version, mcp_url: guide.mcpUrl, health_url: healthUrl,
    client_id: guide.clientId, client_secret_hint: guide.secret.replaceAll("`", ""),
    clients: guide.clients.map((c) => ({ title: c.title.replaceAll("`", ""), steps: c.steps.map((s) => s.replaceAll("`", "")) })),
    sign_in_providers: guide.signIn.providers,
  };
  return new Elysia({ name: "front-door" }).get("/", ({ request }) => {
    if (prefersJson(request.headers.get("accept"))) return jsonNoStore(200, doc);
    const nonce = newNonce();
    return html(FrontDoor({ nonce, version: config.version, healthUrl, guide }), 200, contentSecurityPolicy(nonce, "none"));
  });
}
