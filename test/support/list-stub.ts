// A stand-in ImapFlow for unit tests of folder lookups: it answers LIST as src/mail/imap/list.ts
// reads it (imapflow's command runner, one untagged LIST line per folder), on a server that reports
// RFC 6154 special-use attributes. `lists` counts the LISTs sent.
import type { ImapFlow } from "imapflow";

export interface StubFolder {
  path: string;
  /** The RFC 6154 attribute the server reports, e.g. "\\Sent". */
  specialUse?: string;
}

type Untagged = Record<string, (u: { attributes: unknown[] }) => void>;

export function listingStub<T extends object>(folders: () => StubFolder[], extra?: T): { client: ImapFlow & T; lists: number[] } {
  const lists: number[] = [];
  const exec = async (command: string, _args: unknown[], { untagged }: { untagged: Untagged }) => {
    if (command === "LIST") {
      lists.push(1);
      for (const f of folders()) {
        untagged.LIST?.({ attributes: [f.specialUse ? [{ type: "ATOM", value: f.specialUse }] : [], { type: "STRING", value: "/" }, { type: "STRING", value: f.path }] });
      }
    }
    return { next() {} };
  };
  const client = { exec, capabilities: new Map([["SPECIAL-USE", true]]), enabled: new Set(), namespace: null, ...extra };
  return { client: client as unknown as ImapFlow & T, lists };
}
