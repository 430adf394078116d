/** A failure of `check`: the argument (camelCase, dotted for nested values) and why it is wrong. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** Thrown by provider code when arguments are wrong in a way only discovered at call time. */
export class InputError extends Error {
  constructor(
    readonly property: string,
    reason: string,
  ) {
    super(`${property}: ${reason}`);
    this.name = "InputError";
  }
}
