// The path arguments and the answer of the folder tools (create_folder, rename_folder, delete_folder).
import { z } from "zod";

export const newPathArg = (what: string) => z.string().min(1).max(1000)
  .describe(`${what}, using the hierarchy separator list_mailboxes shows as delimiter (usually "/" or "."), e.g. "Projects/2026". A parent that does not exist is created too.`);

export const existingPathArg = (what: string) => z.string().min(1).max(1000)
  .describe(`${what}: its path exactly as list_mailboxes returns it.`);

export const folderPathShape = { path: z.string().describe("The folder's path.") };
