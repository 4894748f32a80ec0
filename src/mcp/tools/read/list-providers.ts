// list_providers: the mail provider presets a person can pick when connecting a mailbox, and the
// provider sign-ins this server offers (src/oauth/provider-sign-in/): the one tool that needs them,
// so they are handed to it when the endpoint's tools are built (../index.ts mcpTools), not to every call.
import { z } from "zod";
import { PROVIDERS } from "../../../mail/providers/presets.ts";
import { READ_ONLY } from "../annotations.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import type { ServerEndpoint } from "../../../mail/account.ts";

const endpoint = z.object({
  host: z.string().nullable().describe("null for custom: the person enters it."),
  port: z.number().int(),
  security: z.enum(["tls", "starttls", "none"]),
});

const provider = z.object({
  id: z.string(),
  name: z.string(),
  imap: endpoint,
  smtp: endpoint,
  app_password_url: z.string().nullable().describe("Where to create an app-specific password, if the provider has them."),
  notes: z.string(),
  auth: z.enum(["app_password", "oauth"]).describe("oauth: the person signs in at the provider on the setup page; app_password: they enter an app-specific password."),
});

/**
 * A provider sign-in as list_providers shows it: what the composition root hands over from
 * src/oauth/provider-sign-in/ (providerInfo), named here so that mcp/ needs nothing of oauth/.
 */
export interface OfferedSignIn {
  id: string;
  label: string;
  imap: ServerEndpoint;
  smtp: ServerEndpoint;
  notes: string;
}

/** list_providers over this server's provider sign-ins; its answer is built once, on the first call. */
export const listProvidersTool = (signIns: readonly OfferedSignIn[]) => {
  let listing: Listing | undefined;
  return defineTool({
    name: "list_providers",
    kind: "read",
    config: {
      title: "List email providers",
      description:
        "Lists the email providers this server has presets for (IMAP/SMTP servers, where to create an app password, caveats), " +
        "and those whose sign-in page this server offers instead of an app password (auth \"oauth\"). " +
        "Use it to help someone choose a provider or explain how to connect; it does not touch the mailbox.",
      inputSchema: {},
      outputSchema: { providers: z.array(provider) },
      annotations: { ...READ_ONLY, openWorldHint: false },
    },
    // The list and its text depend only on the presets and the sign-ins, so they are built once, not per
    // call (docs/performance.md "The MCP floor": list_providers is the floor's tool). Frozen: every call
    // hands out the same objects.
    handler: async () => {
      const { providers, text } = (listing ??= build(signIns));
      return ok({ providers }, text);
    },
  });
};

type Listing = { providers: readonly Record<string, unknown>[]; text: string };

function build(signInProviders: readonly OfferedSignIn[]): Listing {
  const passwords = PROVIDERS.map(({ id, name, imap, smtp, app_password_url, notes }) =>
    ({ id, name, imap, smtp, app_password_url, notes, auth: "app_password" as const }));
  // The sign-in providers first: where one is offered, it is the way to connect (docs/design.md §5).
  const signIns = signInProviders.map(({ id, label, imap, smtp, notes }) =>
    ({ id, name: label, imap, smtp, app_password_url: null, notes, auth: "oauth" as const }));
  const providers = [...signIns, ...passwords];
  const text = providers.map((p) => `${p.id}: ${p.name}${p.imap.host ? ` (IMAP ${p.imap.host}:${p.imap.port})` : ""}. ${p.notes}`).join("\n");
  return { providers: Object.freeze(providers.map((p) => Object.freeze(p))), text };
}
