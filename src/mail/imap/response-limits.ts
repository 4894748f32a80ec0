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

/**
 * What all the responses to one command may add up to (docs/decisions.md "A hostile mail server"):
 * each is bounded above, but 40 FETCH answers of 19 MB each grew the server by 787 MB from one
 * get_recent_emails. Four times the largest answer a tool asks for (one part of at most 16 MB);
 * past it the connection is closed (./client.ts) and the call fails saying why. What a call holds
 * is at most about this much plus the response that crossed the line: one call grows the server by
 * well under 300 MB.
 */
export const MAX_COMMAND_BYTES = 64 * 1024 * 1024;
