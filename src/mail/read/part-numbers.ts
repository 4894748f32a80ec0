// The part numbers get_email lists and get_attachment takes, on the server's BODYSTRUCTURE.
import type { MessageStructureObject } from "imapflow";

/**
 * BODYSTRUCTURE with the part numbers of RFC 9051 §6.4.5. imapflow gives an attached message's
 * single body the message's own number (N, whose download includes the message's headers; it is
 * N.1) and numbers the parts of a message whose whole body is message/rfc822 from 1 (they are 1.1…).
 */
export function renumber(n: MessageStructureObject, prefix: string, messageRoot: boolean): MessageStructureObject {
  if (n.type.startsWith("multipart/")) {
    const childNodes = (n.childNodes ?? []).map((c, i) => renumber(c, prefix ? `${prefix}.${i + 1}` : String(i + 1), false));
    return { ...n, part: prefix || undefined, childNodes };
  }
  const part = messageRoot ? (prefix ? `${prefix}.1` : "1") : prefix;
  const inner = n.type.startsWith("message/") ? n.childNodes?.[0] : undefined;
  return { ...n, part, childNodes: inner ? [renumber(inner, part, true)] : undefined };
}
