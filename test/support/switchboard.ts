import type { Interceptor } from "../../emulator";
import type { EmulatorResponse } from "../../emulator/core/router";

/**
 * Answers a test puts in front of the emulator's own, changed between steps: the emulator is started with
 * `interceptor`, and each test sets `answers` (the first that answers wins) or holds requests unanswered.
 */
export class Switchboard {
  answers: Interceptor[] = [];
  private held: (() => void)[] = [];

  readonly interceptor: Interceptor = (req, route) => this.answers.map((answer) => answer(req, route)).find((v) => v !== undefined);

  /** An answer that holds the requests of `route` (`METHOD /prefix/template`) without a reply until `reset`. */
  hang(route: string): Interceptor {
    return (req, key) =>
      `${req.method} ${key}` === route ? new Promise<EmulatorResponse>((resolve) => this.held.push(() => resolve({ status: 503 }))) : undefined;
  }

  /** No answers of the test's any more; held requests get a 503, so that the emulator can close. */
  reset(): void {
    this.answers = [];
    for (const release of this.held) release();
    this.held = [];
  }
}
