// send_email's mail work: compose (reading a replied or forwarded message and mailbox parts as
// needed), then deliver (./deliver.ts, the one function that sends).
import { assemble, type Assembled } from "./assemble.ts";
import { deliver, type Delivered } from "./deliver.ts";
import { prepare, type OutgoingArgs, type OutgoingDeps } from "./outgoing.ts";

export interface SendOutcome extends Delivered {
  assembled: Omit<Assembled, "release">;
}

export async function sendEmail(deps: OutgoingDeps, args: OutgoingArgs): Promise<SendOutcome> {
  const p = prepare(args, "send");
  const a = await assemble(deps, p);
  try {
    const source = a.original && { folder: a.original.folder, uid: a.original.uid };
    const out = await deliver(deps, a.composed, { answered: p.reply && source ? source : undefined, forwarded: p.forward && source ? source : undefined });
    return { ...out, assembled: a };
  } finally {
    a.release();
  }
}
