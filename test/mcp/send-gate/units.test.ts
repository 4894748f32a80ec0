// The send gate's small pieces, without servers: which way a client can confirm, the digest of a
// message, the question put to the person, what a saved draft shows its reviewer, and which
// JSON-RPC bodies are a client's answers.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../../src/clock.ts";
import { reviewOfDraft } from "../../../src/mail/write/draft/review-view.ts";
import { channelFor, declaresFormElicitation, declaresUi } from "../../../src/mcp/confirm/channel.ts";
import { confirmMessage, decisionOf } from "../../../src/mcp/confirm/elicitation.ts";
import type { OutgoingMail } from "../../../src/sending/request.ts";
import { responseIds } from "../../../src/mcp/transport/answer-relay.ts";
import { canonicalJson, SendLedger } from "../../../src/store/send-ledger.ts";
import { sqliteDb } from "../../../src/store/db.ts";

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };

describe("the confirmation channel", () => {
  test("form elicitation, else an MCP App host, else none", () => {
    expect(declaresFormElicitation({ elicitation: {} })).toBe(true); // 2025-06-18: form implied
    expect(declaresFormElicitation({ elicitation: { form: {} } })).toBe(true);
    expect(declaresFormElicitation({ elicitation: { url: {} } })).toBe(false);
    expect(declaresFormElicitation({})).toBe(false);
    expect(declaresUi({ extensions: UI })).toBe(true);
    expect(declaresUi({ extensions: { "io.modelcontextprotocol/ui": {} } })).toBe(true);
    expect(declaresUi({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html"] } } })).toBe(false);
    expect(channelFor({ elicitation: {}, extensions: UI })).toBe("elicitation");
    expect(channelFor({ extensions: UI })).toBe("app");
    expect(channelFor(undefined)).toBe("none");
  });
});

describe("the message digest", () => {
  test("keyed, and the same for the same content whatever the key order", () => {
    const a = new SendLedger(sqliteDb(":memory:"), new Uint8Array(32).fill(1), manualClock());
    const b = new SendLedger(sqliteDb(":memory:"), new Uint8Array(32).fill(2), manualClock());
    const m = { tool: "send_email", identity: { to: "x@y", subject: "s", text: "t" } };
    expect(a.digest(m)).toBe(a.digest({ identity: { text: "t", subject: "s", to: "x@y" }, tool: "send_email" }));
    expect(a.digest(m)).not.toBe(a.digest({ ...m, identity: { ...m.identity, text: "u" } }));
    expect(a.digest(m)).not.toBe(b.digest(m));
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});

describe("the question put to the person", () => {
  const mail = {
    recipients: { to: [{ name: "Bob \u202eevil", address: "bob@x.test" }], cc: [{ name: null, address: "new@y.test" }], bcc: [] },
    subject: "Plans\u200b for Friday", attachments: [{ filename: "a.pdf", size: 2_500_000 }], preview: "One\n\nTwo\nThree\n4\n5\n6\n7\n8\n9",
  } as unknown as OutgoingMail;

  test("recipients with the new ones marked, subject, attachments, the first lines; invisible characters removed", () => {
    const q = confirmMessage(mail, ["NEW@y.test"]);
    expect(q).toContain("To: Bob evil <bob@x.test>\n");
    expect(q).toContain("Cc: new@y.test (NEW: never written to before)\n");
    expect(q).toContain("Subject: Plans for Friday\n");
    expect(q).toContain("Attachments: a.pdf (2.4 MB)\n");
    expect(q).toContain("One\nTwo\nThree\n4\n5\n6\n7\n8\n…");
    expect(q).not.toContain("9");
  });

  test("only an accepted 'send' sends", () => {
    expect(decisionOf({ confirm_send: { action: "accept", content: { decision: "send" } } })).toBe("send");
    expect(decisionOf({ confirm_send: { action: "accept", content: { decision: "keep_as_draft" } } })).toBe("keep");
    expect(decisionOf({ confirm_send: { action: "accept", content: { decision: "SEND" } } })).toBe("keep");
    expect(decisionOf({ confirm_send: { action: "decline" } })).toBe("keep");
    expect(decisionOf({ other: { action: "accept", content: { decision: "send" } } })).toBe("missing");
    expect(decisionOf(undefined)).toBe("missing");
  });
});

describe("a saved draft as the person reviews it", () => {
  test("recipients (names decoded), subject, attachments with sizes, the start of its text", async () => {
    const raw = [
      "From: a@x.test", "To: =?utf-8?q?Bj=C3=B6rn?= <bjorn@y.test>, c@z.test", "Cc: d@z.test", "Bcc: e@z.test", "Subject: Plans",
      "MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="b"', "", "--b", "Content-Type: text/plain", "", "Hello there.",
      "--b", 'Content-Type: application/pdf; name="p.pdf"', "Content-Disposition: attachment", "Content-Transfer-Encoding: base64", "",
      Buffer.from("12345").toString("base64"), "--b--", "",
    ].join("\r\n");
    expect(await reviewOfDraft(Buffer.from(raw))).toEqual({
      subject: "Plans",
      recipients: { to: [{ name: "Björn", address: "bjorn@y.test" }, { name: null, address: "c@z.test" }], cc: [{ name: null, address: "d@z.test" }], bcc: [{ name: null, address: "e@z.test" }] },
      attachments: [{ filename: "p.pdf", size: 5 }],
      text: "Hello there.",
    });
  });
});

describe("a client's answers", () => {
  test("a body of JSON-RPC responses only; anything else is not", () => {
    expect(responseIds({ jsonrpc: "2.0", id: 3, result: {} })).toEqual([3]);
    expect(responseIds([{ jsonrpc: "2.0", id: "a", error: { code: 1 } }, { jsonrpc: "2.0", id: 4, result: {} }])).toEqual(["a", 4]);
    expect(responseIds({ jsonrpc: "2.0", id: 3, method: "tools/call" })).toBeNull();
    expect(responseIds([{ jsonrpc: "2.0", id: 3, result: {} }, { jsonrpc: "2.0", method: "notifications/x" }])).toBeNull();
    expect(responseIds({ jsonrpc: "2.0", result: {} })).toBeNull();
  });
});
