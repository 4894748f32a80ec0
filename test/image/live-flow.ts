// The OAuth flow and one tool call against a running server (a container, a compose setup), as an
// MCP client does it: authorize → setup form with a live IMAP login against the harness Dovecot →
// code → token → `get_recent_emails` on /mcp. `server` is where the requests go (via.ts), so the
// same steps run against a published port, Caddy's https or haproxy.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../support/app.ts";
import type { Harness } from "../support/harness.ts";
import { obtainCode, postForm, tokenFields, type Handler } from "../oauth/flow.ts";

export interface OAuthClient {
  id: string;
  secret: string;
}

const CONFIGURED: OAuthClient = { id: TEST_CLIENT_ID, secret: TEST_CLIENT_SECRET };

/** The code from `connect`, redeemed at `redeem` (another instance, say); `fields` as the server sees the mail hosts. */
export async function signIn(connect: Handler, h: Harness,
  opts: { client?: OAuthClient; fields?: Record<string, string>; redeem?: Handler } = {}): Promise<string> {
  const client = opts.client ?? CONFIGURED;
  const { code, verifier } = await obtainCode(connect, h, { query: { client_id: client.id }, fields: opts.fields });
  const res = await postForm(opts.redeem ?? connect, "/oauth/token", tokenFields(code, verifier, { client_id: client.id, client_secret: client.secret }));
  if (res.status !== 200) throw new Error(`token answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** `get_recent_emails` with the SDK's client over Streamable HTTP, every request sent through `server`. */
export async function recentMail(server: Handler, token: string) {
  const client = new Client({ name: "image-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: (url, init) => server.handle(new Request(url, init)),
  }));
  try {
    return await client.callTool({ name: "get_recent_emails", arguments: {} });
  } finally {
    await client.close();
  }
}
