/**
 * A reason the migration will not start, found before anything is made or written: what is wrong, where (the
 * Terraform address, when one is concerned) and what to do about it. Every refusal is collected and shown at once,
 * so that one run tells the user everything to fix.
 */
export interface Refusal {
  /** The Terraform address concerned (`module.ci.tfe_workspace_run_task.on_app["web"]`); none for the whole state. */
  address?: string;
  problem: string;
  fix: string;
}

/** The refusals as lines: `<address>: <problem>; <fix>`. */
export function describeRefusals(refusals: readonly Refusal[]): string {
  return refusals.map((r) => `  - ${r.address ? `${r.address}: ` : ""}${r.problem}; ${r.fix}`).join("\n");
}

/** A run stopped by refusals: nothing was made or written. */
export class MigrationRefused extends Error {
  constructor(readonly refusals: readonly Refusal[]) {
    super(`the migration was refused; nothing was made or written:\n${describeRefusals(refusals)}`);
    this.name = "MigrationRefused";
  }
}
