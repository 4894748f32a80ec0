// Which cells of a workbook hold dates: a number cell shows a date when its style's number format
// is one (ECMA-376 Part 1 §18.8.30 lists the built-in ids; a custom format is a date when it has
// day, month, year or hour codes outside quoted text and [colour] sections). The number is then
// a serial day count from 1899-12-30, or from 1904-01-01 in a date1904 workbook (§18.17.4).
import type { ZipPackage } from "./package.ts";

const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);
const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** The style indices (the cell's s attribute) whose format is a date. */
export function dateStyles(pkg: ZipPackage): Set<number> {
  const custom = new Map<number, string>();
  const dates = new Set<number>();
  let inCellXfs = false;
  let xf = 0;
  pkg.xml("xl/styles.xml", {
    open(name, a) {
      if (name === "numFmt") custom.set(Number(a.numFmtId), a.formatCode ?? "");
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        if (BUILT_IN_DATES.has(id) || isDateFormat(custom.get(id))) dates.add(xf);
        xf++;
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return dates;
}

function isDateFormat(code: string | undefined): boolean {
  if (!code) return false;
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** A serial date as ISO 8601: the date, and the time when it has one. */
export function serialDate(serial: number, date1904: boolean): string {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return String(serial);
  const ms = Math.round(serial * DAY_MS) + (date1904 ? EPOCH_1904 : EPOCH_1900);
  const iso = new Date(ms).toISOString();
  if (Number.isInteger(serial)) return iso.slice(0, 10);
  return serial < 1 ? iso.slice(11, 19) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}
