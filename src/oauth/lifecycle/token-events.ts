// Revocation fan-out: when a token dies (revoke, code replay), its MCP sessions and pooled IMAP/SMTP
// connections must go with it. The OAuth side emits; the MCP and mail sides listen.
export type TokenListener = (tokenId: string) => void | Promise<void>;

export class TokenEvents {
  private readonly listeners = new Set<TokenListener>();

  onRevoked(listener: TokenListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async emitRevoked(tokenId: string): Promise<void> {
    await Promise.allSettled([...this.listeners].map(async (l) => l(tokenId)));
  }
}
