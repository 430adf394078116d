import * as pulumi from "@pulumi/pulumi";
import { recordRegistrations } from "../support/recordingMocks";
import { RunTask } from "../../sdk";
import { leavePromiseStacksUnformatted } from "../../sdk/promiseStacks";

recordRegistrations();

// The SDK's own wrapper, whose stacks are the ones left unformatted.
const { debuggablePromise } = require("@pulumi/pulumi/runtime/debuggable") as {
  debuggablePromise<T>(p: Promise<T>, ctx: string): Promise<T>;
};
/** The stack the SDK gives a promise it wraps (on the promise it was given). */
function wrappedStack(ctx: string): string {
  const p = Promise.resolve(ctx);
  void debuggablePromise(p, ctx);
  return (p as unknown as { _debugStackTrace: string })._debugStackTrace;
}

describe("promise stacks while a resource registers", () => {
  const original = Error.prepareStackTrace;
  afterEach(() => {
    Error.prepareStackTrace = original;
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  });

  test("the SDK's promise stacks are left unformatted, and only while it lasts", () => {
    const done = leavePromiseStacksUnformatted();
    const inside = wrappedStack("inside");
    done();
    expect(inside).toBe("");
    expect(wrappedStack("after")).toMatch(/\n\s+at debuggablePromise /);
    expect(Error.prepareStackTrace).toBe(original);
  });

  test("every other stack formats through the hook that was in place, source maps' or Node's", () => {
    Error.prepareStackTrace = (error, frames) => `formatted by the previous hook: ${frames[0]?.getFunctionName()}`;
    const previous = Error.prepareStackTrace;
    const done = leavePromiseStacksUnformatted();
    function theProgramsLine() {
      return new Error("failed to register").stack;
    }
    expect(theProgramsLine()).toBe("formatted by the previous hook: theProgramsLine");
    done();
    expect(Error.prepareStackTrace).toBe(previous);
  });

  test("a hook installed meanwhile is kept; with the leak report asked for, nothing changes", () => {
    const done = leavePromiseStacksUnformatted();
    const installed = () => "installed meanwhile";
    Error.prepareStackTrace = installed;
    done();
    expect(Error.prepareStackTrace).toBe(installed);

    Error.prepareStackTrace = original;
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "true";
    const none = leavePromiseStacksUnformatted();
    expect(Error.prepareStackTrace).toBe(original);
    expect(wrappedStack("reported")).toMatch(/at debuggablePromise /);
    none();
  });

  test("a resource whose registration throws leaves the hook as it was, and its error keeps its stack", () => {
    let thrown: Error | undefined;
    try {
      // The SDK refuses, in the constructor, a transformation that moves the resource to another parent.
      const elsewhere = new pulumi.ComponentResource("acme:index:Group", "elsewhere");
      const move: pulumi.ResourceTransformation = (a) => ({ props: a.props, opts: { ...a.opts, parent: elsewhere } });
      new RunTask("moved", { url: "https://h.example" }, { transformations: [move] });
    } catch (err) {
      thrown = err as Error;
    }
    expect(thrown).toBeDefined();
    expect(Error.prepareStackTrace).toBe(original);
    expect(thrown!.stack).toContain("promiseStacks.test");
  });
});
