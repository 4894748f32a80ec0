// What the send gate's tables key one mailbox of a connection by (send ledger, confirmations, cap
// events, known recipients): the grant id for its first mailbox (position 0, so every row written
// before several mailboxes existed still belongs to it), `<grant id>#<position>` for the others.
export const mailboxScope = (grantId: string, position: number): string => (position === 0 ? grantId : `${grantId}#${position}`);

/** The grant a scope belongs to (what rows that go with their grant reference). */
export const grantOfScope = (scope: string): string => scope.split("#")[0]!;

/** The mailbox's position in its connection. */
export const positionOfScope = (scope: string): number => Number(scope.split("#")[1] ?? 0);
