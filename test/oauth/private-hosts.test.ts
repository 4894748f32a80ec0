import { describe, expect, test } from "bun:test";
import { checkPublicHost, isPrivateAddress } from "../../src/oauth/private-hosts.ts";

describe("private host refusal", () => {
  test.each([
    "127.0.0.1", "127.1.2.3", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
    "::1", "::", "fe80::1", "fd00::1", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:7f00:1",
    "64:ff9b::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a00:1", "::7f00:1", "not-an-ip",
  ])("%s is private", (a) => expect(isPrivateAddress(a)).toBe(true));

  test.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "64:ff9b::808:808"])(
    "%s is public", (a) => expect(isPrivateAddress(a)).toBe(false));

  test("a name is refused if any of its addresses is private", async () => {
    const resolve = async (h: string) => (h === "mixed.test" ? ["8.8.8.8", "10.1.1.1"] : ["8.8.4.4"]);
    expect(await checkPublicHost("mixed.test", resolve)).toEqual({ ok: false, reason: "private" });
    expect(await checkPublicHost("public.test", resolve)).toEqual({ ok: true });
  });

  test("IP literals are checked without DNS; a failed lookup is unresolvable", async () => {
    const fail = async () => { throw new Error("ENOTFOUND"); };
    expect(await checkPublicHost("127.0.0.1", fail)).toEqual({ ok: false, reason: "private" });
    expect(await checkPublicHost("[::1]", fail)).toEqual({ ok: false, reason: "private" });
    expect(await checkPublicHost("nowhere.invalid", fail)).toEqual({ ok: false, reason: "unresolvable" });
  });

  test("the real resolver: localhost is private", async () => {
    expect(await checkPublicHost("localhost")).toEqual({ ok: false, reason: "private" });
  });
});
