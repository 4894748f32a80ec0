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

export function invitationOf(parsed: ParsedMessage): Invitation | null {
  const part = calendarPart(parsed.root);
  if (!part || part.content.length > MAX_CALENDAR_BYTES) return null;
  let text: string;
  try {
    text = new TextDecoder(part.charset ?? "utf-8").decode(part.content);
  } catch {
    text = part.content.toString("utf8");
  }
  return readInvitation(text);
}
