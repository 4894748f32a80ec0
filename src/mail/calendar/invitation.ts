// An invitation (iTIP, RFC 5546) read from a text/calendar part with ical.js: the method, the event
// (the master when an update carries overrides), its times with their zone (./zoned-time.ts), the
// recurrence as its RRULE text, the organizer and attendees with their answers (PARTSTAT, RFC 5545
// §3.2.12). Every text value was written by the sender: cleaned here, fenced by the tools.
import ICAL from "ical.js";
import { cleanLine } from "../content/sanitize.ts";
import { zonedTime } from "./zoned-time.ts";

type Component = InstanceType<typeof ICAL.Component>;
type Property = InstanceType<typeof ICAL.Property>;

export interface Person {
  name: string | null;
  address: string | null;
}

export interface Attendee extends Person {
  /** PARTSTAT in lower case: needs-action, accepted, declined, tentative, delegated; null when not given. */
  status: string | null;
}

export interface Invitation {
  method: string | null;
  uid: string | null;
  sequence: number;
  summary: string | null;
  start: string | null;
  end: string | null;
  all_day: boolean;
  timezone: string | null;
  recurrence: string | null;
  location: string | null;
  organizer: Person | null;
  attendees: Attendee[];
  /** This mailbox's own answer (./own-status.ts); null when it is not among the attendees. */
  your_status: string | null;
}

/** Attendees listed at most (a company-wide meeting lists thousands). */
export const MAX_ATTENDEES = 200;

const text = (v: unknown) => (typeof v === "string" && v.trim() ? cleanLine(v) : null);

function person(p: Property | null): Person | null {
  if (!p) return null;
  const value = String(p.getFirstValue() ?? "");
  const address = /^mailto:/i.test(value) ? cleanLine(value.replace(/^mailto:/i, "")) || null : null;
  const cn = p.getParameter("cn");
  return { name: text(Array.isArray(cn) ? cn[0] : cn), address };
}

function attendee(p: Property): Attendee {
  const partstat = p.getParameter("partstat");
  return { ...person(p)!, status: text(Array.isArray(partstat) ? partstat[0] : partstat)?.toLowerCase() ?? null };
}

/** The invitation in `calendar` (the part's text); null when it is not iCalendar with an event. */
export function readInvitation(calendar: string): Invitation | null {
  let root: Component;
  try {
    root = new ICAL.Component(ICAL.parse(calendar));
  } catch {
    return null;
  }
  const events = root.getAllSubcomponents("vevent");
  const event = events.find((e) => !e.hasProperty("recurrence-id")) ?? events[0];
  if (!event) return null;
  const zones = new Map(root.getAllSubcomponents("vtimezone").map((z) => [String(z.getFirstPropertyValue("tzid")), new ICAL.Timezone({ component: z, tzid: String(z.getFirstPropertyValue("tzid")) })]));
  const when = (name: string) => {
    const p = event.getFirstProperty(name);
    const t = p?.getFirstValue();
    if (!(t instanceof ICAL.Time)) return null;
    const tzid = p!.getParameter("tzid");
    return zonedTime(t, typeof tzid === "string" ? tzid : null, zones);
  };
  const start = when("dtstart");
  const end = when("dtend") ?? endFromDuration(event, zones);
  const rrule = event.getFirstPropertyValue("rrule");
  return {
    method: text(root.getFirstPropertyValue("method"))?.toUpperCase() ?? null,
    uid: text(event.getFirstPropertyValue("uid")),
    sequence: Number(event.getFirstPropertyValue("sequence") ?? 0) || 0,
    summary: text(event.getFirstPropertyValue("summary")),
    start: start?.iso ?? null,
    end: end?.iso ?? null,
    all_day: start?.allDay ?? false,
    timezone: start?.zone ?? null,
    recurrence: rrule instanceof ICAL.Recur ? cleanLine(rrule.toString()) : null,
    location: text(event.getFirstPropertyValue("location")),
    organizer: person(event.getFirstProperty("organizer")),
    attendees: event.getAllProperties("attendee").slice(0, MAX_ATTENDEES).map(attendee),
    your_status: null,
  };
}

function endFromDuration(event: Component, zones: Map<string, InstanceType<typeof ICAL.Timezone>>) {
  const p = event.getFirstProperty("dtstart");
  const start = p?.getFirstValue();
  const duration = event.getFirstPropertyValue("duration");
  if (!(start instanceof ICAL.Time) || !(duration instanceof ICAL.Duration)) return null;
  const end = start.clone();
  end.addDuration(duration);
  const tzid = p!.getParameter("tzid");
  return zonedTime(end, typeof tzid === "string" ? tzid : null, zones);
}

/** The invitation with this mailbox's answer: the PARTSTAT of the attendee that is one of `own`. */
export function withYourStatus(inv: Invitation, own: readonly string[]): Invitation {
  const mine = inv.attendees.find((a) => a.address && own.includes(a.address.toLowerCase()));
  return { ...inv, your_status: mine ? mine.status ?? "needs-action" : null };
}
