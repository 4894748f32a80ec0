import { describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { readInvitation, withYourStatus } from "../../../src/mail/calendar/invitation.ts";
import { replyCalendar } from "../../../src/mail/calendar/reply.ts";
import { appleIcs, googleIcs, outlookIcs } from "../../support/invitation-mail.ts";

// The Google (IANA zone, weekly), Outlook (Windows zone with its VTIMEZONE) and Apple (all-day) shapes.
const GOOGLE = googleIcs("alice@test.example");
const OUTLOOK = outlookIcs("Alice@test.example");
const APPLE_ALL_DAY = appleIcs("alice@test.example");

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
