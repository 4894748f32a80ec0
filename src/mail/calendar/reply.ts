// An iTIP REPLY (RFC 5546 §3.2.3) to an invitation: the event's UID, SEQUENCE, DTSTART/DTEND (and
// the VTIMEZONEs they name, as RFC 5546 §3.2.3's table allows), ORGANIZER, and one ATTENDEE: this
// mailbox with its answer (PARTSTAT). Built with ical.js from the invitation's own text.
import ICAL from "ical.js";

export type Response = "accepted" | "tentative" | "declined";

const COPIED = ["uid", "sequence", "dtstart", "dtend", "duration", "summary", "organizer", "recurrence-id"];

export function replyCalendar(invitation: string, attendee: string, response: Response, comment: string | null, now: Date): string {
  const source = new ICAL.Component(ICAL.parse(invitation));
  const events = source.getAllSubcomponents("vevent");
  const event = events.find((e) => !e.hasProperty("recurrence-id")) ?? events[0]!;
  const out = new ICAL.Component(["vcalendar", [], []]);
  out.addPropertyWithValue("prodid", "-//mailbox-mcp//iTIP reply//EN");
  out.addPropertyWithValue("version", "2.0");
  out.addPropertyWithValue("method", "REPLY");
  const used = new Set(["dtstart", "dtend"].map((n) => event.getFirstProperty(n)?.getParameter("tzid")).filter((t): t is string => typeof t === "string"));
  for (const zone of source.getAllSubcomponents("vtimezone")) if (used.has(String(zone.getFirstPropertyValue("tzid")))) out.addSubcomponent(zone);
  const reply = new ICAL.Component("vevent");
  for (const name of COPIED) for (const p of event.getAllProperties(name)) reply.addProperty(p);
  reply.addPropertyWithValue("dtstamp", ICAL.Time.fromJSDate(now, true));
  const me = event.getAllProperties("attendee").find((p) => String(p.getFirstValue()).replace(/^mailto:/i, "").toLowerCase() === attendee.toLowerCase());
  const mine = new ICAL.Property("attendee");
  mine.setValue(`mailto:${attendee}`);
  const cn = me?.getParameter("cn");
  if (typeof cn === "string") mine.setParameter("cn", cn);
  mine.setParameter("partstat", response.toUpperCase());
  reply.addProperty(mine);
  if (comment) reply.addPropertyWithValue("comment", comment);
  out.addSubcomponent(reply);
  return out.toString();
}
