import { describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { readInvitation, withYourStatus } from "../../../src/mail/calendar/invitation.ts";
import { replyCalendar } from "../../../src/mail/calendar/reply.ts";

const cal = (method: string, event: string, extra = "") => [
  "BEGIN:VCALENDAR", "PRODID:-//test//EN", "VERSION:2.0", `METHOD:${method}`, extra, "BEGIN:VEVENT", event, "END:VEVENT", "END:VCALENDAR",
].filter(Boolean).join("\r\n");

// Google Calendar shape: IANA TZID with a VTIMEZONE, weekly RRULE.
const GOOGLE = cal("REQUEST", [
  "DTSTART;TZID=Europe/Berlin:20260310T100000", "DTEND;TZID=Europe/Berlin:20260310T110000", "RRULE:FREQ=WEEKLY;BYDAY=TU",
  "DTSTAMP:20260301T090000Z", "ORGANIZER;CN=Olga:mailto:olga@example.com", "UID:abc123@google.com",
  "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;CN=alice@test.example:mailto:alice@test.example",
  "ATTENDEE;PARTSTAT=ACCEPTED;CN=Olga:mailto:olga@example.com", "SEQUENCE:0", "SUMMARY:Weekly sync", "LOCATION:Room 1",
].join("\r\n"));

// Outlook shape: Windows zone name defined by its own VTIMEZONE.
const OUTLOOK_TZ = ["BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE"].join("\r\n");
const OUTLOOK = cal("REQUEST", [
  "ORGANIZER;CN=Bob:mailto:bob@corp.example", "ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=Alice:mailto:Alice@test.example",
  "UID:040000008200E00074C5B7101A82E008", "SUMMARY;LANGUAGE=en-US:Budget review", "DTSTART;TZID=W. Europe Standard Time:20260715T140000",
  "DTEND;TZID=W. Europe Standard Time:20260715T150000", "SEQUENCE:2", "DTSTAMP:20260701T100000Z",
].join("\r\n"), OUTLOOK_TZ);

// Apple shape: all-day.
const APPLE_ALL_DAY = cal("REQUEST", ["UID:A1B2", "DTSTART;VALUE=DATE:20260801", "DTEND;VALUE=DATE:20260802", "SUMMARY:Offsite", "DTSTAMP:20260701T100000Z",
  "ORGANIZER;CN=Carol:mailto:carol@icloud.example", "ATTENDEE;CN=Alice;PARTSTAT=TENTATIVE:mailto:alice@test.example"].join("\r\n"));

describe("invitations", () => {
  test("Google: zone offset from the IANA zone, RRULE text, your_status", () => {
    const inv = withYourStatus(readInvitation(GOOGLE)!, ["alice@test.example"]);
    expect(inv).toMatchObject({ method: "REQUEST", uid: "abc123@google.com", start: "2026-03-10T10:00:00+01:00", end: "2026-03-10T11:00:00+01:00",
      timezone: "Europe/Berlin", all_day: false, recurrence: "FREQ=WEEKLY;BYDAY=TU", location: "Room 1", organizer: { name: "Olga", address: "olga@example.com" }, your_status: "needs-action" });
  });
  test("Outlook: Windows zone name, offset from its VTIMEZONE (summer time)", () => {
    const inv = withYourStatus(readInvitation(OUTLOOK)!, ["alice@test.example"]);
    expect(inv).toMatchObject({ start: "2026-07-15T14:00:00+02:00", timezone: "W. Europe Standard Time", sequence: 2, your_status: "needs-action" });
  });
  test("Apple all-day; CANCEL and COUNTER keep their method", () => {
    expect(withYourStatus(readInvitation(APPLE_ALL_DAY)!, ["alice@test.example"])).toMatchObject({ start: "2026-08-01", end: "2026-08-02", all_day: true, your_status: "tentative" });
    expect(readInvitation(GOOGLE.replace("METHOD:REQUEST", "METHOD:CANCEL"))!.method).toBe("CANCEL");
    expect(readInvitation(GOOGLE.replace("METHOD:REQUEST", "METHOD:COUNTER"))!.method).toBe("COUNTER");
    expect(withYourStatus(readInvitation(GOOGLE)!, ["someone@else.example"]).your_status).toBeNull();
    expect(readInvitation("not a calendar")).toBeNull();
  });
  test("the REPLY: METHOD:REPLY, the event's UID and SEQUENCE, one attendee with the answer", () => {
    const reply = new ICAL.Component(ICAL.parse(replyCalendar(OUTLOOK, "Alice@test.example", "declined", "Away", new Date())));
    expect(reply.getFirstPropertyValue("method")).toBe("REPLY");
    const ev = reply.getFirstSubcomponent("vevent")!;
    expect(ev.getFirstPropertyValue("uid")).toBe("040000008200E00074C5B7101A82E008");
    expect(Number(ev.getFirstPropertyValue("sequence"))).toBe(2);
    const att = ev.getAllProperties("attendee");
    expect(att.length).toBe(1);
    expect(att[0]!.getParameter("partstat")).toBe("DECLINED");
    expect(reply.getAllSubcomponents("vtimezone").length).toBe(1);
  });
});
