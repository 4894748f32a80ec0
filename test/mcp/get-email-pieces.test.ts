// get_email's offset / next_offset, format "markdown" and the stub-text-part rule, through the SDK
// client on the harness Dovecot: pieces of a long body fit together exactly; Markdown keeps every
// link of an HTML newsletter; a "view it in your browser" text part gives way to its HTML.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { randomBytes } from "node:crypto";
import { loginImap } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { alternative, htmlOnly, plainText } from "../support/mail-fixtures.ts";
import { callOk, connectClient, startTestServer, textOf, call, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let mcp: Client;
let imap: ImapFlow;
const folder = `Pieces-${randomBytes(4).toString("hex")}`;
const uid: Record<string, number> = {};

/** A newsletter as senders build them: layout tables, a hidden preheader, styled links, lists, an image. */
function newsletter(items: number): string {
  const item = (i: number) => `<tr><td><table role="presentation" width="100%"><tr>
    <td width="120"><a href="https://click.example.com/t/${i}?u=abc&amp;e=1"><img src="https://img.example.com/${i}.png" alt="Picture ${i}"></a></td>
    <td><h2><a href="https://click.example.com/story/${i}">Story ${i}: <em>big</em> news</a></h2>
      <p>Lorem ipsum <strong>dolor</strong> sit amet, <a href="https://example.org/ref/${i}">a reference</a> &amp; more&nbsp;text.</p>
      <ul><li>Point one of ${i}</li><li>Point two with <a href="https://example.org/p/${i}">link ${i}</a></li></ul></td></tr></table></td></tr>`;
  return `<!doctype html><html><head><style>.x{color:red}</style><title>News</title></head><body>
<div style="display:none">Preheader</div><table width="600"><tr><td><h1>The Weekly <i>Digest</i></h1></td></tr>
${Array.from({ length: items }, (_, i) => item(i)).join("\n")}
<tr><td><p><a href="https://example.com/unsub?x=1">Unsubscribe</a></p></td></tr></table></body></html>`;
}

const LONG = Array.from({ length: 3000 }, (_, i) => `Line ${i} of a long letter, with ümlauts and 😀 now and then.`).join("\n") + "\n";
const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port)));
  imap = await loginImap(h.dovecot, h.dovecot.users.alice);
  await imap.mailboxCreate(folder);
  const put = async (name: string, raw: string) => { uid[name] = ((await imap.append(folder, raw, ["\\Seen"])) as { uid: number }).uid; };
  await put("long", plainText({ subject: "Long letter" }, LONG));
  await put("news", htmlOnly({ subject: "Weekly digest" }, newsletter(40)));
  await put("stub", alternative({ subject: "Stubbed" }, "View this email in your browser: https://view.example.com/w/1\n", newsletter(3)));
  await put("real", alternative({ subject: "Real text" }, "Hello Alice, the real text alternative says everything here.\n", newsletter(3)));
}, 30_000);
afterAll(async () => {
  await mcp.close();
  await imap.logout();
  await srv.stop();
});

/** Every piece of a body, following next_offset. */
async function pieces(name: string, max_chars: number, format = "text"): Promise<{ joined: string; count: number }> {
  let offset: number | null = 0;
  let joined = "";
  let count = 0;
  while (offset !== null && count < 200) {
    const res: { body_text: string; next_offset: number | null; truncated: boolean } = await callOk(mcp, "get_email", { folder, uid: uid[name], max_chars, offset, format });
    expect(res.truncated).toBe(res.next_offset !== null);
    joined += res.body_text;
    offset = res.next_offset;
    count++;
  }
  return { joined, count };
}

describe("get_email in pieces", () => {
  test("a long text body: the pieces reassemble the exact body", async () => {
    const whole = (await callOk(mcp, "get_email", { folder, uid: uid.long, max_chars: 200_000 })).body_text;
    expect(whole).toBe(LONG.trimEnd());
    const { joined, count } = await pieces("long", 50_000);
    expect(count).toBe(4);
    expect(joined).toBe(whole);
  });

  test("a long HTML body, as text and as Markdown: the pieces reassemble the exact body", async () => {
    for (const format of ["text", "markdown"]) {
      const whole = await callOk(mcp, "get_email", { folder, uid: uid.news, max_chars: 200_000, format });
      expect(whole.next_offset).toBeNull();
      const { joined, count } = await pieces("news", 3_000, format);
      expect(count).toBeGreaterThan(2);
      expect(joined).toBe(whole.body_text);
    }
  });

  test("the text says where the next piece starts", async () => {
    const res = await call(mcp, "get_email", { folder, uid: uid.long, max_chars: 1000 });
    expect(textOf(res)).toContain("call again with offset 1000 for the next piece");
  });
});

describe('format "markdown"', () => {
  test("keeps every link of the newsletter, its headings, lists and emphasis", async () => {
    const md = (await callOk(mcp, "get_email", { folder, uid: uid.news, max_chars: 200_000, format: "markdown" })).body_text as string;
    for (const href of hrefs(newsletter(40))) expect(md).toContain(`](${href})`);
    expect(md).toContain("# The Weekly *Digest*");
    expect(md).toContain("## [Story 7: *big* news](https://click.example.com/story/7)");
    expect(md).toContain("- Point two with [link 7](https://example.org/p/7)");
    expect(md).toContain("**dolor**");
    expect(md).toContain("[[Picture 7]](https://click.example.com/t/7?u=abc&e=1)");
    expect(md).not.toContain("img.example.com");
    expect(md).not.toContain("color:red");
  });
});

describe("a text part that is only a stub of its HTML sibling", () => {
  test("the HTML is read instead, and body_note says so", async () => {
    const res = await callOk(mcp, "get_email", { folder, uid: uid.stub });
    expect(res.body_text).toContain("Story 2: big news");
    expect(res.body_text).not.toContain("View this email in your browser");
    expect(res.body_note).toMatch(/plain-text part of this message only pointed to a browser view/);
  });

  test("a real text alternative is still preferred", async () => {
    const res = await callOk(mcp, "get_email", { folder, uid: uid.real });
    expect(res.body_text).toBe("Hello Alice, the real text alternative says everything here.");
    expect(res.body_note).toBeNull();
  });
});
