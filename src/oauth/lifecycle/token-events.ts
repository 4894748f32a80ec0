// Revocation fan-out: when a token dies (revoke, code replay), its MCP sessions and pooled IMAP/SMTP
// connections must go with it; when one mailbox leaves a token's connection (`revoke <address>`, the
// owner page's "remove this mailbox"), what is held open for that mailbox goes. The OAuth side
// emits; the MCP and mail sides listen.
export type TokenListener = (tokenId: string) => void | Promise<void>;
export type MailboxListener = (tokenId: string, position: number) => void | Promise<void>;

export class TokenEvents {
  private readonly listeners = new Set<TokenListener>();
  private readonly mailboxListeners = new Set<MailboxListener>();

  onRevoked(listener: TokenListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onMailboxRemoved(listener: MailboxListener): () => void {
    this.mailboxListeners.add(listener);
    return () => this.mailboxListeners.delete(listener);
  }

  async emitRevoked(tokenId: string): Promise<void> {
    await Promise.allSettled([...this.listeners].map(async (l) => l(tokenId)));
  }

  async emitMailboxRemoved(tokenId: string, position: number): Promise<void> {
    await Promise.allSettled([...this.mailboxListeners].map(async (l) => l(tokenId, position)));
  }
}
