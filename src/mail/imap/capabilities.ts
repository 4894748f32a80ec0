// What the server's CAPABILITY list tells a tool about its dialect.
import type { ImapFlow } from "imapflow";

/** Gmail's IMAP extensions (X-GM-EXT-1): labels (X-GM-LABELS), All Mail holding every message. */
export const isGmail = (client: ImapFlow) => client.capabilities.has("X-GM-EXT-1");
