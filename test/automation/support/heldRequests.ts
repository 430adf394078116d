import type { Interceptor } from "../../../emulator";
import type { EmulatorRequest } from "../../../emulator/core/router";

/**
 * The emulator's requests that `match`, held unanswered until `release`, then served as usual: an update kept in
 * flight (holding its stack's lock) for as long as a test needs. Put `answer` in a Switchboard's answers.
 */
export class HeldRequests {
  private arrivals = 0;
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));

  constructor(private readonly match: (req: EmulatorRequest, route: string) => boolean) {}

  readonly answer: Interceptor = async (req, route) => {
    if (!this.match(req, route)) return undefined;
    this.arrivals++;
    await this.opened;
    return undefined;
  };

  /** Whether a request has come and is held (or was). */
  arrived(): boolean {
    return this.arrivals > 0;
  }

  release(): void {
    this.open();
  }
}

/** Waits until `condition` holds, polling; fails, naming `what`, after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
