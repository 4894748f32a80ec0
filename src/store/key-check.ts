// The master key's check value in store_meta (docs/deploy.md): the first instance records it; every
// later start compares. Instances sharing a store must share one key, or each would seal credentials
// the others cannot open.
import { keyCheckValue, safeEqual } from "./crypto.ts";
import type { Db } from "./db.ts";

const NAME = "key_check";

export type KeyCheck = "recorded" | "match" | "mismatch";

/** Records the key's check value if the store has none; else says whether it matches. */
export async function checkMasterKey(db: Db, masterKey: Uint8Array): Promise<KeyCheck> {
  const value = keyCheckValue(masterKey);
  const inserted = await db.q`INSERT INTO store_meta (name, value) VALUES (${NAME}, ${value}) ON CONFLICT (name) DO NOTHING`;
  if (inserted.count === 1) return "recorded";
  const [row] = await db.q<{ value: string }>`SELECT value FROM store_meta WHERE name = ${NAME}`;
  return row && safeEqual(row.value, value) ? "match" : "mismatch";
}

/** Makes `masterKey` the store's key (SQLite after a lost key file: the old grants cannot be opened anyway). */
export async function replaceMasterKeyCheck(db: Db, masterKey: Uint8Array): Promise<void> {
  await db.q`UPDATE store_meta SET value = ${keyCheckValue(masterKey)} WHERE name = ${NAME}`;
}
