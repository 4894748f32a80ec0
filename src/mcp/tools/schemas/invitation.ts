// The invitation shape of docs/design.md §6 (get_email, get_thread) and its readable lines, which
// go inside the untrusted-content fence: every value is the organizer's.
import { z } from "zod";
import { withYourStatus, type Invitation } from "../../../mail/calendar/invitation.ts";

const person = z.object({ name: z.string().nullable(), address: z.string().nullable() });

export const invitationSchema = z.object({
  method: z.string().nullable().describe("iTIP method (RFC 5546): REQUEST (an invitation or update), CANCEL, REPLY (someone's answer), COUNTER (a proposed new time)…"),
  uid: z.string().nullable().describe("The event's UID: the same across updates."),
  sequence: z.number().int().describe("Revision of the event: a higher one replaces an earlier invitation."),
  summary: z.string().nullable(),
  start: z.string().nullable().describe("ISO 8601 with the event's offset (2026-03-10T10:00:00+01:00), …Z in UTC, a date alone for an all-day event."),
  end: z.string().nullable(),
  all_day: z.boolean(),
  timezone: z.string().nullable().describe("The event's time zone as the invitation names it (TZID), UTC, or null."),
  recurrence: z.string().nullable().describe("How it repeats, as the RRULE text (RFC 5545 §3.3.10): FREQ=WEEKLY;BYDAY=MO; null for a single event."),
  location: z.string().nullable(),
  organizer: person.nullable(),
  attendees: z.array(person.extend({ status: z.string().nullable().describe("needs-action, accepted, declined, tentative, delegated") })),
  your_status: z.string().nullable().describe("This mailbox's own answer so far (needs-action when not yet answered); null when it is not among the attendees."),
}).nullable().describe("The calendar invitation the message carries (text/calendar), written by the organizer; null when none. respond_to_invitation answers it.");

/** The invitation with this mailbox's answer filled in; `own`: the mailbox's addresses (login and send-as identities). */
export const ownView = (inv: Invitation | null, own: readonly string[]) => (inv ? withYourStatus(inv, own) : null);

const people = (list: Invitation["attendees"]) => list.map((a) => `${a.name ? `${a.name} <${a.address ?? "?"}>` : a.address ?? "?"}${a.status ? ` (${a.status})` : ""}`).join(", ");

/** Lines for the fenced text. */
export function invitationLines(inv: Invitation | null): string[] {
  if (!inv) return [];
  return [
    `Invitation (${inv.method ?? "no method"}): ${inv.summary ?? "(no title)"}`,
    `  When: ${inv.start ?? "?"}${inv.end ? ` to ${inv.end}` : ""}${inv.all_day ? " (all day)" : ""}${inv.timezone ? ` [${inv.timezone}]` : ""}`,
    ...(inv.recurrence ? [`  Repeats: ${inv.recurrence}`] : []),
    ...(inv.location ? [`  Where: ${inv.location}`] : []),
    `  Organizer: ${inv.organizer ? people([{ ...inv.organizer, status: null }]) : "(none)"}`,
    ...(inv.attendees.length ? [`  Attendees: ${people(inv.attendees)}`] : []),
    `  Your answer: ${inv.your_status ?? "(you are not among the attendees)"}`,
  ];
}
