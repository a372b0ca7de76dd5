// Sliding-window rate limits: at most `limit` requests per key in any window of `windowMs`.

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export class SlidingWindowLimiter {
  /** Per key, the times of the requests still inside the window, oldest first. */
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 3_600_000,
  ) {}

  /** Takes a slot at `now`, or says how long until one frees. A refused request takes no slot. */
  take(key: string, now: number): TakeResult {
    const hits = this.hits.get(key) ?? [];
    this.hits.set(key, hits);
    while (hits.length && hits[0] <= now - this.windowMs) hits.shift();
    if (hits.length < this.limit) {
      hits.push(now);
      return { ok: true };
    }
    // The slot that frees first is the one taken `limit` requests ago.
    const oldest = hits[hits.length - this.limit] ?? now;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
  }

  reset(): void {
    this.hits.clear();
  }
}
