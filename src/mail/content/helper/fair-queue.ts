// Jobs waiting for a content helper, taken in turn per owner (a token): round robin over the
// owners with work waiting, each owner's own jobs in arrival order. One token queueing many slow
// PDFs therefore delays another token's job by at most one job per helper, not by its whole queue.

export class FairQueue<J extends { owner: string }> {
  /** Owners in turn order (a Map keeps insertion order), each with its jobs in arrival order. */
  private readonly byOwner = new Map<string, J[]>();

  get size(): number {
    let n = 0;
    for (const jobs of this.byOwner.values()) n += jobs.length;
    return n;
  }

  push(job: J): void {
    const jobs = this.byOwner.get(job.owner);
    if (jobs) jobs.push(job);
    else this.byOwner.set(job.owner, [job]);
  }

  /** Takes a waiting job out (its wait ran out); false when it was not waiting. */
  remove(job: J): boolean {
    const jobs = this.byOwner.get(job.owner);
    const at = jobs?.indexOf(job) ?? -1;
    if (at < 0) return false;
    jobs!.splice(at, 1);
    if (!jobs!.length) this.byOwner.delete(job.owner);
    return true;
  }

  /** The next job of the first owner in turn that `eligible` admits; that owner goes to the back. */
  take(eligible: (owner: string) => boolean): J | null {
    for (const [owner, jobs] of this.byOwner) {
      if (!eligible(owner)) continue;
      const job = jobs.shift()!;
      this.byOwner.delete(owner);
      if (jobs.length) this.byOwner.set(owner, jobs);
      return job;
    }
    return null;
  }

  /** Empties the queue, returning what was waiting. */
  drain(): J[] {
    const all = [...this.byOwner.values()].flat();
    this.byOwner.clear();
    return all;
  }
}
