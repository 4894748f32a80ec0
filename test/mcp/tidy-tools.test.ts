// trash_email, archive_email, flag_email, label_email and the folder tools through the official SDK
// client on the harness Dovecot, checked with a second IMAP client (alice's own, as her phone would
// be): where messages land, that nothing is ever expunged, that flags and keywords are what other
// clients see, and every refusal.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { randomBytes } from "node:crypto";
import { findBySubject, loginImap } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let mcp: Client;
let imap: ImapFlow; // alice's other mail client
let grantId: string;
const tag = () => randomBytes(4).toString("hex");

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  const grant = await issueTestGrant(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port));
  grantId = (await srv.deps.grants.findToken(grant.token))!.grantId;
  mcp = await connectClient(srv.mcpUrl, grant.token);
  imap = await loginImap(h.dovecot, h.dovecot.users.alice);
}, 30_000);
afterAll(async () => {
  await mcp.close();
  await imap.logout();
  await srv.stop();
});

async function seed(count: number, prefix = "Tidy"): Promise<{ folder: string; subject: string; uids: number[] }> {
  const folder = `${prefix}-${tag()}`;
  const subject = `tidy ${folder}`;
  await imap.mailboxCreate(folder);
  for (let i = 0; i < count; i++) await h.dovecot.deliver("alice", plainText({ subject: `${subject} #${i}` }), folder);
  return { folder, subject, uids: (await findBySubject(imap, folder, subject)).map((m) => m.uid) };
}

/** Every message of `folder` with its flags, seen by the other client (a fresh view). */
async function contents(folder: string): Promise<Array<{ uid: number; flags: string[] }>> {
  const lock = await imap.getMailboxLock(folder, { readOnly: true });
  try {
    await imap.noop();
    if (!imap.mailbox || !imap.mailbox.exists) return [];
    const out: Array<{ uid: number; flags: string[] }> = [];
    for await (const m of imap.fetch("1:*", { uid: true, flags: true })) out.push({ uid: m.uid, flags: [...(m.flags ?? [])].sort() });
    return out.sort((a, b) => a.uid - b.uid);
  } finally {
    lock.release();
  }
}

async function folders(): Promise<string[]> {
  return (await imap.list()).map((f) => f.path);
}

describe("trash_email and archive_email", () => {
  test("trash lands in Trash, comes back with move_email; nothing expunged, not even another client's \\Deleted mark", async () => {
    const { folder, subject, uids } = await seed(3);
    // The other client marks #2 deleted without expunging (Thunderbird's "mark as deleted"): it must survive.
    const lock = await imap.getMailboxLock(folder);
    try { await imap.messageFlagsAdd(String(uids[2]), ["\\Deleted"], { uid: true }); } finally { lock.release(); }
    const res = await callOk(mcp, "trash_email", { folder, uids: [uids[0], uids[1], 999] });
    expect(res.from).toBe(folder);
    expect(res.to).toBe("Trash");
    expect(res.moved.map((m: { uid: number }) => m.uid)).toEqual([uids[0], uids[1]]);
    const inTrash = await findBySubject(imap, "Trash", subject);
    expect(inTrash.map((m) => m.uid).sort()).toEqual(res.moved.map((m: { new_uid: number }) => m.new_uid).sort());
    expect(inTrash.every((m) => !m.flags.has("\\Deleted"))).toBe(true);
    expect(await contents(folder)).toEqual([{ uid: uids[2]!, flags: ["\\Deleted"] }]);
    // Reversible: move_email from Trash puts it back.
    const back = await callOk(mcp, "move_email", { folder: "\\Trash", uids: [res.moved[0].new_uid], destination: folder });
    expect(back.to).toBe(folder);
    expect((await findBySubject(imap, folder, `${subject} #0`)).length).toBe(1);
  });

  test("trash_email in Trash itself is refused, and nothing changes", async () => {
    const subject = `in-trash ${tag()}`;
    await h.dovecot.deliver("alice", plainText({ subject }), "Trash");
    const [msg] = await findBySubject(imap, "Trash", subject);
    const res = await call(mcp, "trash_email", { folder: "\\Trash", uids: [msg!.uid] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/never deletes mail permanently/);
    expect((await findBySubject(imap, "Trash", subject)).map((m) => m.uid)).toEqual([msg!.uid]);
  });

  test("archive lands in Archive (the \\Archive folder) and is logged with real paths", async () => {
    const { folder, subject, uids } = await seed(1);
    const res = await callOk(mcp, "archive_email", { folder, uids });
    expect(res).toMatchObject({ from: folder, to: "Archive" });
    expect((await findBySubject(imap, "Archive", subject)).map((m) => m.uid)).toEqual([res.moved[0].new_uid]);
    expect(await contents(folder)).toEqual([]);
    const again = await call(mcp, "archive_email", { folder: "Archive", uids: [res.moved[0].new_uid] });
    expect(again.isError).toBe(true);
    const rows = await srv.deps.activity.list({ grant: grantId });
    expect(rows.find((r) => r.tool === "archive_email" && r.outcome === "ok")!.details).toMatchObject({ folder, destination: "Archive" });
  });
});

describe("flag_email and label_email", () => {
  test("flags and keywords are what another client sees, and summaries list the keywords", async () => {
    const { folder, uids } = await seed(2);
    expect(await callOk(mcp, "flag_email", { folder, uids: [uids[0]] })).toEqual({ folder, updated: 1 });
    const labelled = await callOk(mcp, "label_email", { folder, uids, add: ["project-x", "$Todo"] });
    expect(labelled).toEqual({ folder, updated: 2, kind: "keywords" });
    expect(await contents(folder)).toEqual([
      { uid: uids[0]!, flags: ["$Todo", "\\Flagged", "project-x"] },
      { uid: uids[1]!, flags: ["$Todo", "project-x"] },
    ]);
    const page = await callOk(mcp, "get_recent_emails", { folder });
    expect(page.emails.map((e: { labels: string[]; flagged: boolean }) => [e.flagged, e.labels])).toEqual([[false, ["$Todo", "project-x"]], [true, ["$Todo", "project-x"]]]);
    await callOk(mcp, "label_email", { folder, uids: [uids[0]], remove: ["project-x"] });
    await callOk(mcp, "flag_email", { folder, uids: [uids[0]], flagged: false });
    expect((await contents(folder))[0]).toEqual({ uid: uids[0]!, flags: ["$Todo"] });
    const email = await callOk(mcp, "get_email", { folder, uid: uids[0] });
    expect(email.labels).toEqual(["$Todo"]);
  });

  test("a label that cannot be a keyword, or none at all, is an argument error", async () => {
    const { folder, uids } = await seed(1);
    const spaced = await call(mcp, "label_email", { folder, uids, add: ["two words"] });
    expect(spaced.isError).toBe(true);
    expect(textOf(spaced)).toMatch(/cannot be an IMAP keyword/);
    expect(textOf(await call(mcp, "label_email", { folder, uids, add: ["\\Seen"] }))).toMatch(/system flag/);
    expect(textOf(await call(mcp, "label_email", { folder, uids }))).toMatch(/at least one label/);
    expect(await contents(folder)).toEqual([{ uid: uids[0]!, flags: [] }]);
  });
});

describe("folders", () => {
  test("create, create again, rename with its messages, delete once empty", async () => {
    const base = `Proj-${tag()}`;
    expect(await callOk(mcp, "create_folder", { path: `${base}/Sub` })).toEqual({ path: `${base}/Sub` });
    const again = await call(mcp, "create_folder", { path: `${base}/Sub` });
    expect(textOf(again)).toMatch(/already exists/);
    await h.dovecot.deliver("alice", plainText({ subject: `filed ${base}` }), `${base}/Sub`);
    expect(await callOk(mcp, "rename_folder", { path: `${base}/Sub`, new_path: `${base}/Renamed` })).toEqual({ path: `${base}/Renamed` });
    expect(await folders()).toContain(`${base}/Renamed`);
    expect(await folders()).not.toContain(`${base}/Sub`);
    expect((await findBySubject(imap, `${base}/Renamed`, `filed ${base}`)).length).toBe(1);
    const full = await call(mcp, "delete_folder", { path: `${base}/Renamed` });
    expect(full.isError).toBe(true);
    expect(textOf(full)).toMatch(/holds 1 message.*Nothing was deleted/);
    const parent = await call(mcp, "delete_folder", { path: base });
    expect(textOf(parent)).toMatch(/has subfolders/);
    const [msg] = await findBySubject(imap, `${base}/Renamed`, `filed ${base}`);
    await callOk(mcp, "trash_email", { folder: `${base}/Renamed`, uids: [msg!.uid] });
    expect(await callOk(mcp, "delete_folder", { path: `${base}/Renamed` })).toEqual({ path: `${base}/Renamed` });
    expect(await folders()).not.toContain(`${base}/Renamed`);
    const rows = await srv.deps.activity.list({ grant: grantId });
    expect(rows.find((r) => r.tool === "rename_folder")!.details).toMatchObject({ folder: `${base}/Sub`, new_path: `${base}/Renamed` });
  });

  test("renaming a folder the connection had selected read-write keeps another client's \\Deleted message", async () => {
    const { folder, subject, uids } = await seed(2, "Keep");
    await callOk(mcp, "mark_as_read", { folder, uids: [uids[0]] }); // the pooled connection now has it SELECTed
    const lock = await imap.getMailboxLock(folder);
    try { await imap.messageFlagsAdd(String(uids[1]), ["\\Deleted"], { uid: true }); } finally { lock.release(); }
    const renamed = `${folder}-renamed`;
    await callOk(mcp, "rename_folder", { path: folder, new_path: renamed });
    expect((await findBySubject(imap, renamed, subject)).length).toBe(2);
  });

  test("refusals: INBOX, special-use folders, an existing new_path, a missing folder", async () => {
    const { folder } = await seed(0);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["rename_folder", { path: "INBOX", new_path: `X-${tag()}` }, /INBOX is never renamed/],
      ["rename_folder", { path: "Sent", new_path: `X-${tag()}` }, /Sent folder.*never renamed/],
      ["rename_folder", { path: "\\Trash", new_path: `X-${tag()}` }, /Trash folder.*never renamed/],
      ["rename_folder", { path: folder, new_path: "Archive" }, /already exists/],
      ["delete_folder", { path: "inbox" }, /INBOX is never deleted/],
      ["delete_folder", { path: "Junk" }, /Junk folder.*never deleted/],
      ["delete_folder", { path: `Nope-${tag()}` }, /does not exist.*Existing folders/],
      ["create_folder", { path: "\\Archive" }, /special-use folder/],
    ];
    for (const [tool, args, message] of cases) {
      const res = await call(mcp, tool, args);
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(message);
    }
    expect(await folders()).toEqual(expect.arrayContaining(["INBOX", "Sent", "Trash", "Junk", "Archive", folder]));
  });
});
