/**
 * What a live publication's public routes show (its row and its captions), kept for a moment in this
 * API process (decision 150). A share page that is passed around is asked for by many visitors at once,
 * and each visit also asks for its poster, its captions and the video's ranges: without this, every one
 * of them read the publication again (two queries, two thirds of the route's time on PGlite).
 *
 * - Only live publications are kept. A miss (never published, taken down, a guess) always goes to the
 *   database, so misses cost what they cost and a flood of guesses fills nothing.
 * - An unpublish or a new quote made through this process forgets the publication at once. A change made
 *   elsewhere (another API process, the company's name or colours, an edited transcript) shows within
 *   `ttlMs`: the "404 within seconds".
 * - Visits that arrive while the publication is being read wait for that one read.
 */
export class LivePages<T extends { id: string }> {
  private readonly entries = new Map<string, { value: Promise<T | null>; expiresAt: number }>();

  constructor(private readonly options: { ttlMs: number; maxEntries: number; now?: () => number }) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The live publication of `slug`, from this process's memory when read less than `ttlMs` ago. */
  get(slug: string, read: () => Promise<T | null>): Promise<T | null> {
    const now = this.now();
    const kept = this.entries.get(slug);
    if (kept && kept.expiresAt > now) return kept.value;
    if (kept) this.entries.delete(slug);
    const value = read();
    // Oldest first: when full, the entry read longest ago makes room.
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(slug, { value, expiresAt: now + this.options.ttlMs });
    // A miss or a failed read is not kept: the next visit asks the database again.
    value.then(
      (found) => {
        if (!found && this.entries.get(slug)?.value === value) this.entries.delete(slug);
      },
      () => {
        if (this.entries.get(slug)?.value === value) this.entries.delete(slug);
      },
    );
    return value;
  }

  /** Forgets a publication (unpublished, or its page changed): its next visit reads it again. */
  async forget(publicationId: string): Promise<void> {
    for (const [slug, entry] of [...this.entries]) {
      const value = await entry.value.catch(() => null);
      if (!value || value.id === publicationId) this.entries.delete(slug);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
