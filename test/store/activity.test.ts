// ActivityLog: details sealed under the master key's records key, filters by grant prefix and time.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { ActivityLog } from "../../src/store/activity.ts";
import { storesOver } from "../../src/store/store.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";
import { describeDetails, parseSince } from "../../src/verbs/activity.ts";

const master = new Uint8Array(32).fill(4);

closeStoresAfterEach();

describe("ActivityLog", () => {
  test.each(BACKENDS.map((b) => [b.name, b] as const))("%s: filters by grant id prefix and by time; oldest first", async (_name, backend) => {
    const clock = manualClock(Date.UTC(2026, 10, 20, 12));
    const { db, activity: log } = storesOver(await backend.open(), master, clock);
    await log.record({ grantId: "aaaa1111", tool: "send_email", outcome: "ok", details: { recipients: ["bob@example.test"], message_id: "<m@x>" } });
    clock.advance(86_400_000);
    await log.record({ grantId: "bbbb2222", tool: "mark_as_read", outcome: "error", details: { folder: "INBOX", uids: [3], read: true, error: "gone" } });
    await log.record({ grantId: "aaaa1111", tool: "move_email", outcome: "ok", details: { folder: "INBOX", destination: "Archive", uids: [4] } });
    expect((await log.list()).map((r) => r.tool)).toEqual(["send_email", "mark_as_read", "move_email"]);
    expect((await log.list({ grant: "AAAA" })).map((r) => r.tool)).toEqual(["send_email", "move_email"]);
    expect((await log.list({ since: parseSince("2026-11-21") })).map((r) => r.tool)).toEqual(["mark_as_read", "move_email"]);
    expect((await log.list({ grant: "bbbb", since: parseSince("2026-11-21") }))[0]!.details).toEqual({ folder: "INBOX", uids: [3], read: true, error: "gone" });
    expect(JSON.stringify(await db.q`SELECT * FROM activity`)).not.toContain("bob@example.test");
    expect((await new ActivityLog(db, new Uint8Array(32), clock).list())[0]!.details).toBeNull();
  });

  test("one line per call", () => {
    expect(describeDetails({ recipients: ["a@x", "b@y"], folder: "Sent", message_id: "<m@x>", rejected: ["b@y"] }))
      .toBe("to a@x, b@y; in Sent; Message-ID <m@x>; refused by the server: b@y");
    expect(describeDetails({ folder: "INBOX", destination: "Archive", uids: [4, 5], moved: [{ uid: 4, new_uid: 9 }, { uid: 5, new_uid: null }] }))
      .toBe("INBOX -> Archive; uids 4, 5; new uids 9, ?");
    expect(describeDetails({ folder: "INBOX", uids: [3], read: false, error: "gone" })).toBe("in INBOX; uids 3; marked unread; error: gone");
    // The send gate's decisions (docs/owner.md §4).
    expect(describeDetails({ recipients: ["a@x"], folder: "Drafts", uids: [7], message_id: "<m@x>", decision: "held_as_draft" }))
      .toBe("to a@x; in Drafts; uids 7; Message-ID <m@x>; held as draft (the person could not be asked yet)");
    expect(describeDetails({ decision: "confirmed" })).toBe("confirmed by the person, sent");
    expect(describeDetails({ decision: "declined" })).toBe("declined by the person, kept as draft");
    expect(describeDetails({ decision: "repeat" })).toBe("repeated request, not sent again");
  });
});
