// One entry of a message's attachment list, as get_email lists it and get_attachment answers with.
import { z } from "zod";

export const attachmentSchema = z.object({
  part: z.string().describe('IMAP body part number, e.g. "2".'),
  filename: z.string().nullable(),
  content_type: z.string(),
  size: z.number().int().describe("Decoded size in bytes."),
});
