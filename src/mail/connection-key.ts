// What keys one mailbox's connections (credentials, IMAP, SMTP) in memory: the token id for a
// connection's first mailbox (position 0: every one-mailbox connection, keyed exactly as before
// several mailboxes existed), `<token id>#<position>` for the others. A connection holds at most
// MAX_CONNECTION_MAILBOXES, at positions below it, so a revocation can close them all by key.
export const MAX_CONNECTION_MAILBOXES = 10;

export const connectionKey = (tokenId: string, position: number): string => (position === 0 ? tokenId : `${tokenId}#${position}`);

/** Every key a token's mailboxes may use. */
export function connectionKeys(tokenId: string): string[] {
  return Array.from({ length: MAX_CONNECTION_MAILBOXES }, (_, i) => connectionKey(tokenId, i));
}
