// How much of a server's answer we accept, in one place: the connection options and the error that
// reports a refusal both read it.

/**
 * What one server response may hold. imapflow's defaults (1 GiB per literal, 2 GiB per response)
 * let any server a user names fill our memory: a 50 MB subject once took RSS from 126 to 535 MB.
 * The largest literal a tool asks for is a message's first 4 MB (get_email) or one part of at most
 * 16 MB (get_attachment); a line without literals is a SEARCH or an ENVELOPE with many addresses.
 */
export const RESPONSE_LIMITS = {
  maxLiteralSize: 20 * 1024 * 1024,
  maxResponseSize: 24 * 1024 * 1024,
  maxLineLength: 4 * 1024 * 1024,
};
