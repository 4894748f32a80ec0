// What the setup form and a provider sign-in accept as a mailbox address or login name. Both end up
// in the grant's label (what `mailbox-mcp grants` and the logs show) and in the mail server's login,
// so a control character is refused where it comes in, not only escaped where it goes out: C0/C1
// controls and DEL (Unicode Cc), the line and paragraph separators (Zl, Zp), and the text-direction
// controls of Unicode UAX #9 §2 that can make a label read as another address.

const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,255}$/;

/** True when `value` holds a control character (a line break, tab, NUL, escape, direction override…). */
export const hasControlCharacter = (value: string): boolean => CONTROL.test(value);

/** An address the form accepts: local@domain, without spaces, quotes, angle brackets or control characters. */
export const isMailboxAddress = (value: string): boolean => EMAIL.test(value) && !hasControlCharacter(value);
