// Special-use names as folder arguments (src/mail/imap/folders.ts): "\Sent" finds the folder the
// server marks \Sent (RFC 6154), whatever it is called, never a folder merely named "Sent".
import { describe, expect, test } from "bun:test";
import { MailError } from "../../src/mail/errors.ts";
import { resolveFolderName, specialUseOf } from "../../src/mail/imap/folders.ts";
import { listingStub } from "../support/list-stub.ts";

/** An ImapFlow that only answers LIST, counting the LISTs. */
function gmailLike() {
  return listingStub(() => [
    { path: "INBOX" }, { path: "Sent" }, { path: "[Gmail]/Sent Mail", specialUse: "\\Sent" },
    { path: "[Gmail]/Trash", specialUse: "\\Trash" }, { path: "[Gmail]/All Mail", specialUse: "\\All" },
  ]);
}

describe("special-use folder names", () => {
  test("recognised names, any case, with one or two backslashes; anything else is a path", () => {
    expect(specialUseOf("\\Sent")).toBe("\\Sent");
    expect(specialUseOf("\\sent")).toBe("\\Sent");
    expect(specialUseOf("\\\\Trash")).toBe("\\Trash");
    expect(specialUseOf("\\Inbox")).toBe("INBOX");
    expect(specialUseOf("Sent")).toBeNull();
    expect(specialUseOf("\\Flagged")).toBeNull();
    expect(specialUseOf("Archive/\\Sent")).toBeNull();
  });

  test("the folder the server marks, not one merely called so; one LIST, then the per-connection cache", async () => {
    const { client, lists } = gmailLike();
    expect(await resolveFolderName(client, "\\Sent")).toBe("[Gmail]/Sent Mail");
    expect(await resolveFolderName(client, "\\SENT")).toBe("[Gmail]/Sent Mail");
    expect(await resolveFolderName(client, "\\All")).toBe("[Gmail]/All Mail");
    expect(lists.length).toBe(2); // \Sent once, \All once
  });

  test("paths and \\Inbox need no LIST", async () => {
    const { client, lists } = gmailLike();
    expect(await resolveFolderName(client, "Sent")).toBe("Sent");
    expect(await resolveFolderName(client, "\\Inbox")).toBe("INBOX");
    expect(lists.length).toBe(0);
  });

  test("a use the mailbox has no folder for: an error naming the argument and listing the folders", async () => {
    const { client } = gmailLike();
    const err = await resolveFolderName(client, "\\Archive", "destination").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    expect((err as MailError).kind).toBe("not_found");
    expect((err as MailError).message).toMatch(/^destination: This mailbox has no folder marked \\Archive.*Existing folders: INBOX, \[Gmail\]\/Sent Mail, \[Gmail\]\/All Mail, \[Gmail\]\/Trash, Sent\./);
  });
});
