// A corpus of odd but real-world-shaped messages (written for these tests): forwards, bare or
// unknown text types, digests, groups, addresses a server has to patch, HTML a converter chokes on.
// Each is raw RFC 5322 with CRLF line ends, as a mail server stores it.
const j = (...lines: string[]) => lines.join("\r\n") + "\r\n";
const head = (subject: string, extra: string[] = []) => [
  "From: Ann Example <ann@example.org>", "To: alice@example.test", `Subject: ${subject}`,
  "Date: Mon, 02 Mar 2026 10:00:00 +0000", `Message-ID: <odd-${subject.replace(/\W+/g, "-")}@example.org>`, "MIME-Version: 1.0", ...extra,
];

export const NESTED_DEPTH = 24_000;

export const ODD_MAIL = {
  /** A forward whose whole body is the forwarded message (Content-Type: message/rfc822 at the top). */
  forwardTop: j(...head("Fwd: minutes", ["Content-Type: message/rfc822"]), "",
    "From: Bob Example <bob@example.net>", "To: ann@example.org", "Subject: minutes", "Date: Sun, 01 Mar 2026 10:00:00 +0000",
    "Content-Type: text/plain; charset=utf-8", "", "The inner minutes text."),
  /** A forward attached to a short note. */
  forwardAttached: j(...head("Fwd: attached", ['Content-Type: multipart/mixed; boundary="fa"']), "",
    "--fa", "Content-Type: text/plain", "", "See below.", "--fa", "Content-Type: message/rfc822", "",
    "From: Bob Example <bob@example.net>", "Subject: inner", "Content-Type: text/plain", "", "Inner attached text.", "--fa--"),
  /** RFC 2045 §5.2: `Content-Type: text` (no subtype) is invalid and means text/plain. */
  bareText: j(...head("bare text", ["Content-Type: text; charset=us-ascii"]), "", "Body of a bare text type."),
  /** RFC 2046 §4.1.4: an unknown text subtype is read as text/plain. */
  unknownText: j(...head("x-one", ["Content-Type: text/x-one; charset=utf-8"]), "", "Body of text/x-one."),
  /** HTML only, plus a PDF: the body is the HTML, converted; headings keep their case. */
  htmlWithAttachment: j(...head("invoice", ['Content-Type: multipart/mixed; boundary="hw"']), "",
    "--hw", "Content-Type: text/html; charset=utf-8", "",
    "<h1>Your Invoice</h1><p>Thanks for <b>shopping</b>.</p><table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>3</td></tr></table>",
    "--hw", 'Content-Type: application/pdf; name="invoice.pdf"', 'Content-Disposition: attachment; filename="invoice.pdf"',
    "Content-Transfer-Encoding: base64", "", "JVBERi0xLjQK", "--hw--"),
  /** 24,000 nested tags: html-to-text overflows its stack on this. */
  nestedHtml: j(...head("deep", ["Content-Type: text/html; charset=utf-8"]), "",
    `${"<div>".repeat(NESTED_DEPTH)}deep text${"</div>".repeat(NESTED_DEPTH)}`),
  /** Addresses without a domain or mailbox: the server's ENVELOPE fills in placeholders. */
  missingParts: j("From: foo", "To: undisclosed, bar@", "Cc: @nohost.example, \"Real\" <real@example.org>", "Subject: missing parts",
    "Date: Mon, 02 Mar 2026 10:00:00 +0000", "Reply-To: undisclosed-recipients:;, \"Help\" <help@example.org>, nobody",
    "MIME-Version: 1.0", "Content-Type: text/plain", "", "hi"),
  /** Groups: an empty one, and one with members. */
  groups: j("From: IETF Secretariat <ietf-secretariat@example.org>", "To: IETF-Announce:;", "Cc: team: a@example.org, B <b@example.org>;, c@example.org",
    "Subject: groups", "Date: Mon, 02 Mar 2026 10:00:00 +0000", "MIME-Version: 1.0", "Content-Type: text/plain", "", "group body"),
  /** A mailing-list digest: a table of contents, then multipart/digest whose parts default to message/rfc822. */
  digest: j(...head("Digest Vol 1", ['Content-Type: multipart/mixed; boundary="outer"']), "",
    "--outer", "Content-Type: text/plain", "", "Today's topics:", "  1. First (Ann)", "  2. Second (Bob)",
    "--outer", 'Content-Type: multipart/digest; boundary="dig"', "",
    "--dig", "", "From: Ann <ann@example.org>", "Subject: First", "Date: Sun, 01 Mar 2026 10:00:00 +0000", "", "First message body.",
    "--dig", "", "From: Bob <bob@example.org>", "Subject: Second", "Content-Type: text/plain", "", "Second message body.",
    "--dig--", "--outer--"),
  /** Latin-1 quoted-printable, and format=flowed (RFC 3676). */
  latin1Flowed: j(...head("charsets", ['Content-Type: multipart/mixed; boundary="cs"']), "",
    "--cs", "Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: quoted-printable", "", "Gr=FC=DFe aus K=F6ln",
    "--cs", "Content-Type: text/plain; charset=utf-8; format=flowed", "", "This line was long and ", "flowed by the sender.", "--cs--"),
  /** multipart/alternative whose text part is blank: the HTML is the body. */
  blankAlternative: j(...head("blank text part", ['Content-Type: multipart/alternative; boundary="ba"']), "",
    "--ba", "Content-Type: text/plain", "", " ", "--ba", "Content-Type: text/html", "", "<p>Only the <i>HTML</i> says something.</p>", "--ba--"),
};

export type OddName = keyof typeof ODD_MAIL;
