// What the connect guide (./connect-guide.ts) and its client list (./connect-clients.ts) are told
// about this server: a leaf both import, so neither imports the other for it.
import type { AllowedMailboxes } from "../allowed-mailboxes.ts";

export interface GuideSettings {
  baseUrl: string;
  clientId: string;
  /** null where the secret must not be shown (the front door). */
  clientSecret: string | null;
  openRegistration: boolean;
  clientMetadataDocuments: boolean;
  extraRedirectUris: string[];
  /** Labels of the OAuth mail providers configured (none: only app passwords). */
  signInProviders?: string[];
  /** Given only to `mailbox-mcp client`: the operator may see the list, the public front door not. */
  allowedMailboxes?: AllowedMailboxes | null;
}
