import type { StepEvent, StepOp } from "../engine";

const SYMBOL: Record<string, string> = { create: "+", import: "=", update: "~", delete: "-", replace: "+-", refresh: "~" };
const DONE: Record<string, string> = {
  same: "unchanged",
  create: "created",
  import: "imported",
  update: "updated",
  delete: "deleted",
  replace: "replaced",
  refresh: "refreshed",
  gone: "gone",
};

/** `RunTask` from `pulumi-nodejs:dynamic/runtask:RunTask`. */
function kindOf(type: string): string {
  return type.slice(type.lastIndexOf(":") + 1);
}

/**
 * One line of progress for a step of the engine driver, worded as automation/progress.ts words the Pulumi
 * engine's events, so that both ways of running the demo read alike (the provider plugins' engine imports too);
 * undefined for the steps not worth a line.
 */
export function describeStepEvent(e: Omit<StepEvent, "op"> & { op: StepOp | "import" }): string | undefined {
  const what = `${kindOf(e.type)} ${e.name}`;
  switch (e.phase) {
    case "planned":
    case "started":
      return e.op === "same" ? undefined : `${SYMBOL[e.op] ?? "*"} ${e.op} ${what}`;
    case "done": {
      const id = e.id && e.op !== "delete" ? ` (${e.id})` : "";
      return `  ${DONE[e.op] ?? e.op} ${what}${id}${e.retained ? " (retained: the object is left in place)" : ""}`;
    }
    case "failed":
      return `! ${e.op} failed: ${what}`;
  }
}
