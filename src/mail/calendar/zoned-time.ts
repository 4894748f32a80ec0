// An iCalendar time (RFC 5545 §3.3.4/§3.3.5) as ISO 8601 with its zone's offset: a DATE as
// 2026-03-10, UTC as …Z, a TZID time with the offset that zone has then. The offset comes from the
// VTIMEZONE the invitation carries (Outlook names zones its own way: "W. Europe Standard Time"),
// else from the IANA database when the TZID is an IANA name (Google, Apple); a floating time, or a
// zone neither knows, has no offset.
import type ICAL from "ical.js";

type Time = InstanceType<typeof ICAL.Time>;
type Zone = InstanceType<typeof ICAL.Timezone>;

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

function offsetText(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const m = Math.round(Math.abs(seconds) / 60);
  return `${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** The offset of IANA zone `tz` at the wall time `wall` (ms as if UTC), in seconds; null if unknown. */
function ianaOffset(tz: string, wall: number): number | null {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
  } catch {
    return null;
  }
  const wallAt = (utc: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(utc)).map((x) => [x.type, Number(x.value)]));
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  };
  let offset = wallAt(wall) - wall;
  offset = wallAt(wall - offset) - (wall - offset); // once more, across a change of offset
  return offset / 1000;
}

export interface ZonedTime {
  iso: string;
  allDay: boolean;
  /** The TZID, "UTC", or null for a floating time or a date. */
  zone: string | null;
}

export function zonedTime(t: Time, tzid: string | null, zones: Map<string, Zone>): ZonedTime {
  const date = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
  if (t.isDate) return { iso: date, allDay: true, zone: null };
  const local = `${date}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
  if (t.zone?.tzid === "UTC" || t.toString().endsWith("Z")) return { iso: `${local}Z`, allDay: false, zone: "UTC" };
  if (!tzid) return { iso: local, allDay: false, zone: null };
  const own = zones.get(tzid);
  const seconds = own ? own.utcOffset(t) : ianaOffset(tzid, Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
  return { iso: seconds === null ? local : `${local}${offsetText(seconds)}`, allDay: false, zone: tzid };
}
