// The kinds of content helper process and the module each one runs. Loaded only in the helper
// (a dynamic import each), so the server never loads PDF.js, html-to-text or the document readers itself. Both the
// single executable (src/main.ts, `--content-helper ROLE`) and a source checkout (./entry.ts run
// by bun) start a helper through this table.

export const HELPER_ROLES = {
  "html-text": () => import("../html-text/worker.ts"),
  "pdf-text": () => import("../pdf-text/worker.ts"),
  "document-text": () => import("../documents/worker.ts"),
} as const;

export type HelperRole = keyof typeof HELPER_ROLES;

export { HELPER_FLAG } from "./protocol.ts";

export const isHelperRole = (role: string | undefined): role is HelperRole => role !== undefined && Object.hasOwn(HELPER_ROLES, role);

/** Runs the helper `role` in this process (its module starts serving jobs when loaded). */
export async function runHelper(role: HelperRole): Promise<void> {
  await HELPER_ROLES[role]();
}
