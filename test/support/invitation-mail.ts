// Calendar invitations as the big three send them, for the invitation tests: the iCalendar text
// (RFC 5545) and the iMIP message around it (RFC 6047) in each mailer's MIME shape.
//   Google Calendar: IANA TZID, weekly RRULE; multipart/mixed(alternative(text, html, text/calendar
//     method=REQUEST), invite.ics as application/ics).
//   Outlook: a Windows zone name defined by its own VTIMEZONE, SEQUENCE 2; multipart/alternative(text,
//     text/calendar base64).
//   Apple (iCloud): all-day; multipart/mixed(text, text/calendar attachment, 7bit).
import { base64Lines, note, type Entity } from "./attachment-mail.ts";
import { buildMessage, multipart, type Envelope } from "./mail-fixtures.ts";

const CRLF = "\r\n";

export const calendar = (method: string, event: string[], extra: string[] = []) => [
  "BEGIN:VCALENDAR", "PRODID:-//test//EN", "VERSION:2.0", `METHOD:${method}`, ...extra, "BEGIN:VEVENT", ...event, "END:VEVENT", "END:VCALENDAR",
].join(CRLF);

export const googleIcs = (attendee: string, uid = "abc123@google.com", organizer = "olga@example.com") => calendar("REQUEST", [
  "DTSTART;TZID=Europe/Berlin:20260310T100000", "DTEND;TZID=Europe/Berlin:20260310T110000", "RRULE:FREQ=WEEKLY;BYDAY=TU",
  "DTSTAMP:20260301T090000Z", `ORGANIZER;CN=Olga:mailto:${organizer}`, `UID:${uid}`,
  `ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;CN=${attendee}:mailto:${attendee}`,
  `ATTENDEE;PARTSTAT=ACCEPTED;CN=Olga:mailto:${organizer}`, "SEQUENCE:0", "SUMMARY:Weekly sync", "LOCATION:Room 1",
]);

export const OUTLOOK_TZ = ["BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE"];

export const outlookIcs = (attendee: string, uid = "040000008200E00074C5B7101A82E008", organizer = "bob@corp.example") => calendar("REQUEST", [
  `ORGANIZER;CN=Bob:mailto:${organizer}`, `ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=Alice:mailto:${attendee}`,
  `UID:${uid}`, "SUMMARY;LANGUAGE=en-US:Budget review", "DTSTART;TZID=W. Europe Standard Time:20260715T140000",
  "DTEND;TZID=W. Europe Standard Time:20260715T150000", "SEQUENCE:2", "DTSTAMP:20260701T100000Z",
], OUTLOOK_TZ);

export const appleIcs = (attendee: string, uid = "A1B2", organizer = "carol@icloud.example") => calendar("REQUEST", [
  `UID:${uid}`, "DTSTART;VALUE=DATE:20260801", "DTEND;VALUE=DATE:20260802", "SUMMARY:Offsite", "DTSTAMP:20260701T100000Z",
  `ORGANIZER;CN=Carol:mailto:${organizer}`, `ATTENDEE;CN=Alice;PARTSTAT=TENTATIVE:mailto:${attendee}`,
]);

const calendarPart = (ics: string, method: string): Entity => ({
  headers: [`Content-Type: text/calendar; charset=UTF-8; method=${method}`, "Content-Transfer-Encoding: base64"], body: base64Lines(ics),
});

const alternative = (parts: Entity[]) => multipart("alternative", parts);
const mixed = (parts: Entity[]) => multipart("mixed", parts);

const methodOf = (ics: string) => /^METHOD:(\S+)/m.exec(ics)?.[1] ?? "REQUEST";

/** Google's shape: the calendar inside the alternative, and again as an invite.ics attachment. */
export const googleMail = (env: Envelope, ics: string) => buildMessage(env, mixed([
  alternative([note("You have been invited."), { headers: ["Content-Type: text/html; charset=UTF-8"], body: "<p>You have been invited.</p>" }, calendarPart(ics, methodOf(ics))]),
  { headers: ["Content-Type: application/ics; name=\"invite.ics\"", "Content-Disposition: attachment; filename=\"invite.ics\"", "Content-Transfer-Encoding: base64"], body: base64Lines(ics) },
]));

/** Outlook's shape: text and the calendar as the two alternatives. */
export const outlookMail = (env: Envelope, ics: string) => buildMessage(env, alternative([note("Budget review"), calendarPart(ics, methodOf(ics))]));

/** Apple's shape: a note, then the calendar as an attachment. */
export const appleMail = (env: Envelope, ics: string) => buildMessage(env, mixed([
  note("Invitation from Carol"),
  { headers: [`Content-Type: text/calendar; method=${methodOf(ics)}; name="iCal-20260701.ics"`, "Content-Disposition: attachment; filename=\"iCal-20260701.ics\"", "Content-Transfer-Encoding: 7bit"], body: ics },
]));
