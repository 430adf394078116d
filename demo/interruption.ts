/**
 * Ctrl-C while the demo runs. A terminal sends SIGINT to its whole foreground process group: npm, the demo, and the
 * `pulumi` CLI the demo runs (the plugins have process groups of their own, and get the engine's Cancel instead).
 * The CLI takes the first SIGINT for "stop after the operations in flight, and record them", so the demo must stay,
 * and its emulator serve those operations, until the CLI has ended: the first Ctrl-C aborts `signal`, which stops
 * the demo's own steps (and interrupts the CLI where the SIGINT did not reach it: `linkedInterrupt`), and the demo
 * then keeps what the run left. The CLI takes a second one for "terminate at once"; a third ends the demo at once.
 */
export class Interruption {
  private readonly controller = new AbortController();
  private count = 0;
  private readonly onSigint = () => {
    this.count += 1;
    if (this.count === 1) {
      this.say("Ctrl-C: stopping once the engine has recorded the operations in flight (Ctrl-C again stops the engine at once)");
      this.controller.abort(new Interrupted());
    } else if (this.count >= 3) {
      process.exit(130);
    }
  };

  constructor(private readonly say: (line: string) => void) {}

  /** Aborted on the first Ctrl-C. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Listens for SIGINT (in place of Node's default, which ends the process at once). */
  start(): void {
    process.on("SIGINT", this.onSigint);
  }

  stop(): void {
    process.off("SIGINT", this.onSigint);
  }

  /** Throws where a Ctrl-C came: between steps, so that the demo starts nothing new. */
  check(): void {
    if (this.interrupted) throw new Interrupted();
  }
}

/** What a step stopped by Ctrl-C throws. */
export class Interrupted extends Error {
  constructor() {
    super("interrupted (Ctrl-C)");
  }
}
