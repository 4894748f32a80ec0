// iCalendar (.ics, RFC 5545) and vCard (.vcf, RFC 6350 / 2426) as readable text: each component
// (event, to-do, card…) under its own heading, its properties as labelled lines (dates in ISO
// 8601, attendees with their name and answer). Time zone definitions, alarms' internals and
// properties without a label here (photos, X- extensions) are counted as left out, by name.
import { contentLines, dateValue, unescapeText, type ContentLine } from "./contentlines.ts";
import type { TextSink } from "./sink.ts";
import { decodeText } from "./text-decode.ts";

const COMPONENTS: Record<string, string> = {
  VEVENT: "Event", VTODO: "To-do", VJOURNAL: "Journal entry", VFREEBUSY: "Free/busy", VALARM: "Alarm", VCARD: "Contact",
};
const LABELS: Record<string, string> = {
  METHOD: "Method", SUMMARY: "Summary", DTSTART: "Start", DTEND: "End", DUE: "Due", DURATION: "Duration", RRULE: "Repeats",
  RDATE: "Also on", EXDATE: "Except", "RECURRENCE-ID": "Occurrence", LOCATION: "Location", ORGANIZER: "Organizer", ATTENDEE: "Attendee",
  STATUS: "Status", DESCRIPTION: "Description", URL: "Link", UID: "UID", SEQUENCE: "Sequence", CLASS: "Class", PRIORITY: "Priority",
  CATEGORIES: "Categories", COMMENT: "Comment", CONTACT: "Contact", TRIGGER: "Trigger", ACTION: "Action",
  FN: "Name", N: "Structured name", NICKNAME: "Nickname", ORG: "Organization", TITLE: "Title", ROLE: "Role", EMAIL: "Email",
  TEL: "Phone", ADR: "Address", BDAY: "Birthday", ANNIVERSARY: "Anniversary", NOTE: "Note", IMPP: "Chat",
};
const DATES = new Set(["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "RDATE", "EXDATE", "BDAY", "ANNIVERSARY"]);
const STRUCTURE = new Set(["BEGIN", "END", "VERSION", "PRODID", "CALSCALE"]);

export function readCalendar(bytes: Uint8Array, charset: string | null, sink: TextSink): void {
  const skipped = new Map<string, number>();
  let zones = 0;
  for (const line of contentLines(decodeText(bytes, charset))) {
    if (line.name === "BEGIN" && line.value.toUpperCase() === "VTIMEZONE") zones++;
    if (line.name === "END" && line.value.toUpperCase() === "VTIMEZONE") zones--;
    if (zones > 0) continue;
    const heading = line.name === "BEGIN" ? COMPONENTS[line.value.toUpperCase()] : undefined;
    if (heading) sink.line(`\n## ${heading}`);
    else if (LABELS[line.name]) sink.line(`${LABELS[line.name]}: ${valueOf(line)}`);
    else if (!STRUCTURE.has(line.name)) skipped.set(line.name, (skipped.get(line.name) ?? 0) + 1);
  }
  if (skipped.size) sink.omit(`properties without a readable form here: ${[...skipped.keys()].slice(0, 20).join(", ")}`);
}

function valueOf(line: ContentLine): string {
  const { name, params } = line;
  if (DATES.has(name)) return line.value.split(",").map((v) => dateValue(v, params.TZID)).join(", ");
  if (name === "ORGANIZER" || name === "ATTENDEE") return person(line);
  if (name === "N" || name === "ADR") return line.value.split(";").map(unescapeText).map((s) => s.trim()).filter(Boolean).join(", ");
  const value = unescapeText(line.value);
  return params.TYPE ? `${value} (${params.TYPE.toLowerCase()})` : value;
}

/** CAL-ADDRESS (RFC 5545 §3.8.4.1/3): name <address>, the answer (PARTSTAT) and role when given. */
function person(line: ContentLine): string {
  const address = line.value.replace(/^mailto:/i, "");
  const who = line.params.CN ? `${line.params.CN} <${address}>` : address;
  const about = [line.params.PARTSTAT?.toLowerCase(), line.params.ROLE?.toLowerCase()].filter(Boolean);
  return about.length ? `${who} (${about.join(", ")})` : who;
}
