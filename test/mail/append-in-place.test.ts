// APPEND without selecting its folder (src/mail/write/append.ts, RFC 3501 §6.3.11): with UIDPLUS a Sent
// copy or a draft is stored from wherever the connection stands, the folder a read EXAMINEd stays
// selected, and the flags asked for are kept (imapflow filtered them by the *selected* folder's
// PERMANENTFLAGS, empty after EXAMINE: patches/imapflow@2.1.2.patch). Against the harness Dovecot.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import { MailError } from "../../src/mail/errors.ts";
import { appendDraft, appendMessage, appendSent } from "../../src/mail/write/append.ts";
import { getHarness } from "../support/harness.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import { plainText } from "../support/mail-fixtures.ts";

let client: ImapFlow;
let observer: ImapFlow;
const tag = () => crypto.randomUUID().slice(0, 8);

beforeAll(async () => {
  const h = await getHarness();
  [client, observer] = await Promise.all([loginImap(h.dovecot, h.dovecot.users.alice), loginImap(h.dovecot, h.dovecot.users.alice)]);
}, 20_000);
afterAll(async () => {
  await Promise.all([client.logout(), observer.logout()]);
});

function message(subject: string): { raw: Buffer; messageId: string; subject: string } {
  const messageId = `<${tag()}@append.example.test>`;
  return { raw: Buffer.from(plainText({ subject, messageId })), messageId, subject };
}

/** Flags as stored: \Recent is the session's, not the message's. */
const kept = (flags: Set<string>) => [...flags].filter((f) => f !== "\\Recent").sort();

describe("APPEND from the folder a read left selected", () => {
  test("a Sent copy keeps \\Seen and a draft \\Draft \\Seen; INBOX stays examined, nothing else is selected", async () => {
    await client.mailboxOpen("INBOX", { readOnly: true });
    const sent = message(`in place sent ${tag()}`);
    const draft = message(`in place draft ${tag()}`);
    const a = await appendSent(client, sent.raw, sent.messageId);
    const b = await appendDraft(client, draft.raw, draft.messageId);
    expect(client.mailbox && [client.mailbox.path, client.mailbox.readOnly]).toEqual(["INBOX", true]);
    const [copy] = await findBySubject(observer, a.folder, sent.subject);
    expect(copy!.uid).toBe(a.uid!);
    expect(kept(copy!.flags)).toEqual(["\\Seen"]);
    const [saved] = await findBySubject(observer, b.folder, draft.subject);
    expect(saved!.uid).toBe(b.uid!);
    expect(kept(saved!.flags)).toEqual(["\\Draft", "\\Seen"]);
  });

  test("a folder that does not exist: the server's NO comes back as a MailError, which appendToSpecial answers by listing the folders again", async () => {
    await client.mailboxOpen("INBOX", { readOnly: true });
    const m = message(`nowhere ${tag()}`);
    const err = await appendMessage(client, `Gone-${tag()}`, m.raw, ["\\Seen"], m.messageId).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    expect((err as Error).message).toContain("refused to save the message");
  });

  test("without UIDPLUS the folder is selected and the new message found by its Message-ID", async () => {
    await client.mailboxOpen("INBOX", { readOnly: true });
    const caps = client.capabilities as Map<string, unknown>;
    const uidplus = caps.get("UIDPLUS");
    caps.delete("UIDPLUS");
    try {
      const m = message(`no uidplus ${tag()}`);
      const a = await appendSent(client, m.raw, m.messageId);
      expect(client.mailbox && client.mailbox.path).toBe(a.folder);
      const found = await client.search({ header: { "message-id": m.messageId } }, { uid: true });
      expect(found).toEqual([a.uid!]);
    } finally {
      caps.set("UIDPLUS", uidplus);
    }
  });
});
