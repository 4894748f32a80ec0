// ENABLE (RFC 5161) of CONDSTORE / QRESYNC (RFC 7162) on a pooled connection, the first time a tool
// needs it. ENABLE is allowed only outside a selected folder, so a selected one is left with UNSELECT
// (RFC 3691), never CLOSE, which would expunge a read-write folder's \Deleted messages. The caller
// holds the connection's mailbox lock and selects its folder again afterwards.
import type { ImapFlow } from "imapflow";

interface Internals {
  state: number;
  states: { AUTHENTICATED: number; SELECTED: number };
  mailbox: unknown;
  currentSelectCommand: unknown;
  enabled: Set<string>;
  run(command: string, ...args: unknown[]): Promise<unknown>;
  exec(command: string, attributes: unknown[]): Promise<{ next(): void }>;
}

/** Whether `extension` is on for this connection now (turned on if the server offers it). */
export async function enableExtension(client: ImapFlow, extension: "QRESYNC" | "CONDSTORE"): Promise<boolean> {
  const c = client as unknown as Internals;
  if (c.enabled.has(extension)) return true;
  if (!client.capabilities.has(extension) || !client.capabilities.has("ENABLE")) return false;
  if (c.state === c.states.SELECTED) {
    if (!client.capabilities.has("UNSELECT")) return false;
    (await c.exec("UNSELECT", [])).next();
    c.mailbox = false;
    c.currentSelectCommand = false;
    c.state = c.states.AUTHENTICATED;
  }
  await c.run("ENABLE", [extension]);
  // RFC 7162 §3.2.3: enabling QRESYNC enables CONDSTORE too, though ENABLED lists only QRESYNC;
  // imapflow sends CHANGEDSINCE only when it knows CONDSTORE is on.
  if (extension === "QRESYNC" && c.enabled.has("QRESYNC")) c.enabled.add("CONDSTORE");
  return c.enabled.has(extension);
}
