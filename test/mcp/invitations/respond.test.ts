// respond_to_invitation through a real server, the harness Dovecot and SMTP receiver: invitations in
// Google, Outlook and Apple shapes are delivered to alice; get_email shows each; the answer leaves
// from the invited address to the organizer, and the REPLY (RFC 5546 §3.2.3, iMIP RFC 6047) is read
// back from what the receiver got; the invitation is \Answered after a real send only. The send gate
// applies (the organizer is new under "ask for new recipients"): an elicitation-capable client is
// asked, one that cannot be is held as a draft, dry_run sends nothing. Refusals are tool errors.
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import ICAL from "ical.js";
import { simpleParser } from "mailparser";
import { randomBytes } from "node:crypto";
import type { SendPolicy } from "../../../src/send-policy.ts";
import { aliceServer } from "../../support/alice-server.ts";
import { aliasClient } from "../../support/alias-client.ts";
import { findBySubject } from "../../support/imap.ts";
import { appleIcs, appleMail, googleIcs, googleMail, outlookIcs, outlookMail } from "../../support/invitation-mail.ts";
import { plainText } from "../../support/mail-fixtures.ts";
import { call, callOk, connectClient, textOf } from "../../support/mcp-client.ts";
import { issueTestGrant } from "../../support/token.ts";

const fx = aliceServer();
const tag = () => randomBytes(4).toString("hex");
const alice = () => fx.h.dovecot.users.alice.email;

let grantId = "";

async function client(policy: SendPolicy = "direct", asked?: unknown[]): Promise<Client> {
  const { token, grantId: id } = await issueTestGrant(fx.srv.deps, fx.account(), "email:read email:write", undefined, policy);
  grantId = id;
  if (!asked) return connectClient(fx.srv.mcpUrl, token).then((c) => (fx.open.push(c), c));
  const c = new Client({ name: "invite-asker", version: "0" }, { capabilities: { elicitation: {} } });
  c.setRequestHandler(ElicitRequestSchema, (async (req: { params: unknown }) => (asked.push(req.params), { action: "accept", content: { decision: "send" } })) as never);
  await c.connect(new StreamableHTTPClientTransport(new URL(fx.srv.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  fx.open.push(c);
  return c;
}

/** Delivers `raw` to alice's INBOX under a fresh subject; its uid. */
async function delivered(build: (env: { subject: string; to: string; from: string }) => string, from = "organizer@example.com"): Promise<{ uid: number; subject: string }> {
  const subject = `invite ${tag()}`;
  await fx.h.dovecot.deliver("alice", build({ subject, to: alice(), from }));
  const [found] = await findBySubject(fx.imap, "INBOX", subject);
  return { uid: found!.uid, subject };
}

const answered = async (subject: string) => (await findBySubject(fx.imap, "INBOX", subject))[0]!.flags.has("\\Answered");

/** The one message the SMTP receiver got for the event `uid`, and its REPLY parsed. */
async function replyFor(eventUid: string) {
  const all = await Promise.all(fx.h.smtp.messages.map(async (m) => ({ m, parsed: await simpleParser(m.raw) })));
  const mine = all.filter(({ parsed }) => parsed.attachments.some((a) => a.contentType === "text/calendar" && a.content.toString().includes(eventUid)));
  expect(mine.length).toBe(1);
  const { m, parsed } = mine[0]!;
  const part = parsed.attachments.find((a) => a.contentType === "text/calendar")!;
  const cal = new ICAL.Component(ICAL.parse(part.content.toString("utf8")));
  return { envelope: m, parsed, part, cal, vevent: cal.getFirstSubcomponent("vevent")! };
}

const SHAPES = [
  ["Google (IANA zone, weekly)", googleIcs, googleMail, "accepted", "ACCEPTED"],
  ["Outlook (Windows zone, SEQUENCE 2)", outlookIcs, outlookMail, "tentative", "TENTATIVE"],
  ["Apple (all-day)", appleIcs, appleMail, "declined", "DECLINED"],
] as const;

describe("respond_to_invitation", () => {
  for (const [shape, ics, mail, response, partstat] of SHAPES) {
    test(`${shape}: get_email shows it; the REPLY goes from the invited address to the organizer; \\Answered after the send`, async () => {
      const c = await client();
      const eventUid = `ev-${tag()}`;
      const organizer = `org-${tag()}@example.com`;
      const { uid, subject } = await delivered((env) => mail(env, ics(alice(), eventUid, organizer)));
      const email = await callOk(c, "get_email", { folder: "INBOX", uid });
      expect(email.invitation).toMatchObject({ method: "REQUEST", uid: eventUid, organizer: { address: organizer } });
      expect((email.invitation as { your_status: string }).your_status).not.toBeNull();
      expect(await answered(subject)).toBe(false);

      const res = await call(c, "respond_to_invitation", { folder: "INBOX", uid, response, comment: `note ${eventUid}` });
      expect(res.structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
      const reply = await replyFor(eventUid);
      expect(reply.envelope.from.toLowerCase()).toBe(alice().toLowerCase());
      expect(reply.envelope.to).toEqual([organizer]);
      expect(reply.parsed.from?.value[0]?.address?.toLowerCase()).toBe(alice().toLowerCase());
      expect(reply.cal.getFirstPropertyValue("method")).toBe("REPLY");
      expect(reply.vevent.getFirstPropertyValue("uid")).toBe(eventUid);
      const attendees = reply.vevent.getAllProperties("attendee");
      expect(attendees).toHaveLength(1);
      expect(String(attendees[0]!.getFirstValue()).toLowerCase()).toBe(`mailto:${alice().toLowerCase()}`);
      expect(attendees[0]!.getParameter("partstat")).toBe(partstat);
      expect(String(reply.vevent.getFirstPropertyValue("organizer")).toLowerCase()).toBe(`mailto:${organizer}`);
      expect(String(reply.vevent.getFirstPropertyValue("comment"))).toBe(`note ${eventUid}`);
      expect(await answered(subject)).toBe(true);
      // The activity log names the invitation (not the Sent copy) and the organizer.
      const [row] = await fx.srv.deps.activity.list({ grant: grantId });
      expect(row).toMatchObject({ tool: "respond_to_invitation", outcome: "ok", details: { folder: "INBOX", uids: [uid], decision: "sent_directly", recipients: [organizer] } });
    });
  }

  test("the organizer is new under 'ask for new recipients': a client that cannot be asked gets a draft, nothing sent, not \\Answered; dry_run says so", async () => {
    const c = await client("new_recipients");
    const eventUid = `ev-${tag()}`;
    const organizer = `org-${tag()}@example.com`;
    const { uid, subject } = await delivered((env) => googleMail(env, googleIcs(alice(), eventUid, organizer)));
    const dry = await call(c, "respond_to_invitation", { folder: "INBOX", uid, response: "accepted", dry_run: true });
    expect(dry.structuredContent).toMatchObject({ status: "dry_run", preview: { policy: "new_recipients", new_recipients: [organizer] } });
    const held = await call(c, "respond_to_invitation", { folder: "INBOX", uid, response: "accepted" });
    const r = held.structuredContent as { status: string; reason: string; draft: { uid: number } };
    expect(r.status).toBe("held_as_draft");
    expect(r.reason).toContain(`writing to someone new (${organizer})`);
    expect(fx.h.smtp.messages.filter((m) => m.to.includes(organizer))).toHaveLength(0);
    expect(await answered(subject)).toBe(false);
    const [draft] = await findBySubject(fx.imap, "Drafts", "Accepted: Weekly sync");
    expect(draft).toBeDefined();
  });

  test("the organizer is new and the client can ask: the person is asked, then the REPLY is sent and the invitation \\Answered", async () => {
    const asked: Array<{ message: string }> = [];
    const c = await client("new_recipients", asked);
    const eventUid = `ev-${tag()}`;
    const organizer = `org-${tag()}@example.com`;
    const { uid, subject } = await delivered((env) => outlookMail(env, outlookIcs(alice(), eventUid, organizer)));
    const res = await call(c, "respond_to_invitation", { folder: "INBOX", uid, response: "declined" });
    expect(res.structuredContent).toMatchObject({ status: "sent", decision: "confirmed" });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain(`${organizer}> (NEW`);
    expect((await replyFor(eventUid)).vevent.getFirstProperty("attendee")!.getParameter("partstat")).toBe("DECLINED");
    expect(await answered(subject)).toBe(true);
  });

  test("an invitation to one of the mailbox's send-as identities is answered from that identity, under its name", async () => {
    const { c, work } = await aliasClient(fx);
    const eventUid = `ev-${tag()}`;
    const { uid } = await delivered((env) => outlookMail(env, outlookIcs(work, eventUid, `org-${tag()}@example.com`)));
    const res = await call(c, "respond_to_invitation", { folder: "INBOX", uid, response: "accepted" });
    expect(res.structuredContent).toMatchObject({ status: "sent" });
    const reply = await replyFor(eventUid);
    expect(reply.envelope.from).toBe(work);
    expect(reply.parsed.from?.value[0]).toMatchObject({ name: "Alice at Work", address: work });
    expect(String(reply.vevent.getFirstPropertyValue("attendee")).toLowerCase()).toBe(`mailto:${work}`);
  });

  test("your_status of an invitation to a send-as identity: get_email, get_thread and the message resource show that attendee's answer", async () => {
    const { c, work } = await aliasClient(fx);
    const { uid } = await delivered((env) => appleMail(env, appleIcs(work.toUpperCase(), `ev-${tag()}`))); // PARTSTAT=TENTATIVE, any case
    expect((await callOk<{ invitation: { your_status: string | null } }>(c, "get_email", { folder: "INBOX", uid })).invitation.your_status).toBe("tentative");
    const thread = await callOk<{ messages: Array<{ uid: number; invitation: { your_status: string | null } | null }> }>(c, "get_thread", { folder: "INBOX", uid });
    expect(thread.messages.find((m) => m.uid === uid)!.invitation!.your_status).toBe("tentative");
    const res = await c.readResource({ uri: `mailbox://message/INBOX/${uid}` });
    expect((res.contents[0] as { text: string }).text).toContain("Your answer: tentative");
    // Without the identity the same invitation is not this mailbox's.
    const plain = await client();
    expect((await callOk<{ invitation: { your_status: string | null } }>(plain, "get_email", { folder: "INBOX", uid })).invitation.your_status).toBeNull();
  });

  const refusals = [
    ["a cancellation", (to: string) => googleIcs(to, `ev-${tag()}`).replace("METHOD:REQUEST", "METHOD:CANCEL"), "cancels the event"],
    ["no organizer", (to: string) => googleIcs(to, `ev-${tag()}`).replace(/^ORGANIZER.*\r\n/m, ""), "names no organizer"],
    ["not invited", () => googleIcs(`someone-${tag()}@example.net`, `ev-${tag()}`), "not among the invitation's attendees"],
    ["a COUNTER", (to: string) => googleIcs(to, `ev-${tag()}`).replace("METHOD:REQUEST", "METHOD:COUNTER"), "COUNTER"],
  ] as const;
  for (const [what, ics, words] of refusals) {
    test(`refused with a reason: ${what}`, async () => {
      const c = await client();
      const before = fx.h.smtp.messages.length;
      const { uid, subject } = await delivered((env) => googleMail(env, ics(alice())));
      const res = await call(c, "respond_to_invitation", { folder: "INBOX", uid, response: "accepted" });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain(words);
      expect(fx.h.smtp.messages.length).toBe(before);
      expect(await answered(subject)).toBe(false);
    });
  }

  test("refused with a reason: a message with no calendar part", async () => {
    const c = await client();
    const { uid } = await delivered((env) => plainText(env));
    const res = await call(c, "respond_to_invitation", { folder: "INBOX", uid, response: "accepted" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("carries no calendar invitation");
  });
});
