/**
 * A client-side limit on request rate, learnt from the server: once a response carries `X-RateLimit-Limit`
 * (the run task service sends it, with its 429s at least), requests to that service with that token are spaced
 * to stay under it instead of bursting into 429s and waiting them out all at once. One per service and token,
 * for the whole process: the engine runs every resource's operations through one plugin process.
 */
export class RateLimiter {
  private rate = 0;
  private capacity = 1;
  private tokens = 1;
  private last = Date.now();
  private chain: Promise<void> = Promise.resolve();

  /** Share of the advertised limit used, leaving room for the token's other clients and for timing slack. */
  static readonly SHARE = 0.8;

  learn(limitPerSecond: number): void {
    if (!(limitPerSecond > 0)) return;
    const rate = limitPerSecond * RateLimiter.SHARE;
    if (rate === this.rate) return;
    this.rate = rate;
    // A small bucket: a burst as large as the rate would let two seconds' worth through one second's window.
    this.capacity = Math.max(1, Math.floor(rate / 10));
    this.tokens = Math.min(this.tokens, this.capacity);
  }

  /** Whether requests are being spaced (a limit was learnt); until then `acquire` never waits. */
  get paced(): boolean {
    return this.rate > 0;
  }

  /** Resolves when a request may be sent; at once while no limit is known. */
  acquire(): Promise<void> {
    if (this.rate === 0) return Promise.resolve();
    const turn = this.chain.then(() => this.take());
    this.chain = turn;
    return turn;
  }

  private async take(): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - this.tokens) / this.rate) * 1000)));
    }
  }
}

const limiters = new Map<string, RateLimiter>();

/** The limiter of a service and token (the token itself is not kept as the key). */
export function rateLimiterFor(origin: string, tokenFingerprint: string): RateLimiter {
  const key = `${origin} ${tokenFingerprint}`;
  let limiter = limiters.get(key);
  if (!limiter) limiters.set(key, (limiter = new RateLimiter()));
  return limiter;
}
