/** A failure of `check`: the argument (camelCase, dotted for nested values) and why it is wrong. */
export interface CheckFailure {
  property: string;
  reason: string;
}
