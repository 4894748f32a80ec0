// The invitation a parsed message carries: its first text/calendar part (iMIP, RFC 6047 §2.4: one
// per message, usually beside the text and HTML in a multipart/alternative), read with
// ./invitation.ts. Attached messages are not looked into: an invitation forwarded inside one is not
// this message's.
import type { MimePart, ParsedMessage } from "../mime/tree.ts";
import { readInvitation, type Invitation } from "./invitation.ts";

/** A calendar part larger than this is not read as an invitation (real ones are a few KB). */
const MAX_CALENDAR_BYTES = 512 * 1024;

function calendarPart(node: MimePart): MimePart | null {
  if (node.type === "text/calendar" && node.content.length) return node;
  for (const child of node.children) {
    const found = calendarPart(child);
    if (found) return found;
  }
  return null;
}

/** The text of the message's calendar part; null when it has none (or one too large). */
export function calendarText(parsed: ParsedMessage): string | null {
  const part = calendarPart(parsed.root);
  if (!part || part.content.length > MAX_CALENDAR_BYTES) return null;
  try {
    return new TextDecoder(part.charset ?? "utf-8").decode(part.content);
  } catch {
    return part.content.toString("utf8");
  }
}

export function invitationOf(parsed: ParsedMessage): Invitation | null {
  const text = calendarText(parsed);
  return text === null ? null : readInvitation(text);
}
