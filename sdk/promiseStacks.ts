/**
 * The SDK gives every promise it makes while a resource registers a stack trace, captured and formatted at once
 * (`debuggablePromise` in `@pulumi/pulumi/runtime/debuggable.js`, two promises for each registered output), which
 * only its leak report reads, printed in full only with `PULUMI_DEBUG_PROMISE_LEAKS`. Formatting is half of what
 * each costs. While one of the package's resources registers, those stacks are left unformatted; every other stack
 * formats as it would have, through the `Error.prepareStackTrace` in place (Node's own, or a source-map hook): the
 * source position the SDK records in the state, and the stack of the error a failed registration throws (pointing
 * at the program's line), are the same.
 *
 * Returns what ends it, to call once the registration's synchronous part is over (the SDK formats those stacks
 * there). Nothing is changed where the leak report is asked for, or where there is no `Error.prepareStackTrace` to
 * hand the other stacks to. Each resource class calls it around its own `super` rather than through a shared base
 * class: the SDK takes the source position four frames up from its `Resource` constructor, which one more class
 * in between would move off the program's line.
 */
export function leavePromiseStacksUnformatted(): () => void {
  const previous = Error.prepareStackTrace;
  if (typeof previous !== "function" || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => undefined;
  const hook = (error: Error, frames: NodeJS.CallSite[]): unknown =>
    frames[0]?.getFunctionName() === PROMISE_WRAPPER ? "" : previous(error, frames);
  Error.prepareStackTrace = hook;
  return () => {
    // Whatever installed a hook of its own meanwhile keeps it.
    if (Error.prepareStackTrace === hook) Error.prepareStackTrace = previous;
  };
}

/** The SDK's function that gives a promise its stack; were it renamed, every stack formats as before. */
const PROMISE_WRAPPER = "debuggablePromise";
