import { SnapshotRunTaskError } from "../../provider/common/errors";

/**
 * The member by which Pulumi's Node.js SDK knows a `RunError` (`RunError.isInstance`, `@pulumi/pulumi` errors.ts): a
 * boolean member rather than a class, so that every copy of the SDK a process loads knows the errors of every other.
 */
const RUN_ERROR_MEMBER = "__pulumiRunError";

/**
 * A function's call, its failure reaching the program as one the program may act on, and that the Pulumi SDK prints
 * as a resource's error is printed: its message alone, once. The package's own errors (an answer the service refused,
 * a proxy's refusal, a setting missing) are marked as a `RunError` is, so that the SDK prints `error: <message>`,
 * where it would print "Unhandled exception" and the stack through node_modules (and the Node.js language host then
 * stops, having reported it); each keeps its class and `code` for a program that catches it. Anything else (a bug)
 * keeps its stack.
 */
export async function asProgramFailure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof SnapshotRunTaskError && !(RUN_ERROR_MEMBER in err)) {
      Object.defineProperty(err, RUN_ERROR_MEMBER, { value: true, enumerable: false });
    }
    throw err;
  }
}
