// The OAuth mail providers this server offers, built once from the configuration (docs/design.md §5):
// the presets whose client id is set, then the providers file in its order.
import type { FileProviderSettings, OAuthSettings } from "../../config/oauth-providers.ts";
import { providerInfo, type OAuthProvider, type OAuthProviderInfo } from "./provider.ts";
import { googleProvider, microsoftProvider } from "./presets.ts";

function fromFile(p: FileProviderSettings): OAuthProvider {
  return {
    ...p,
    label: p.name,
    notes: `Sign in at ${p.name}; no app password needed.`,
    imapRefusedHint: `Check that IMAP is allowed for this account at ${p.name}.`,
    fromFile: true,
  };
}

export class OAuthProviders {
  private readonly byId: ReadonlyMap<string, OAuthProvider>;

  constructor(settings: OAuthSettings) {
    const list = [
      ...(settings.microsoft ? [microsoftProvider(settings.microsoft)] : []),
      ...(settings.google ? [googleProvider(settings.google)] : []),
      ...settings.file.map(fromFile),
    ];
    this.byId = new Map(list.map((p) => [p.id, p]));
  }

  /** Configured providers, presets first. */
  list(): OAuthProvider[] {
    return [...this.byId.values()];
  }

  /** The providers as they may be shown: no client id, no secret. */
  info(): OAuthProviderInfo[] {
    return this.list().map(providerInfo);
  }

  find(id: string): OAuthProvider | null {
    return this.byId.get(id) ?? null;
  }

  /**
   * Origins the setup form's POST may be redirected to: browsers apply CSP form-action to the 303
   * that follows it (docs/oauth.md §7), and for these providers that 303 goes to their sign-in page.
   */
  authorizationOrigins(): string[] {
    return [...new Set(this.list().map((p) => new URL(p.authorizationEndpoint).origin))];
  }
}
