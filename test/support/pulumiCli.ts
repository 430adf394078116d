import { findPulumiCli, PULUMI_INSTALL_URL } from "../../automation/pulumiCli";

/** Whether a `pulumi` CLI is on PATH: tests that drive the real engine need one. */
export function hasPulumiCli(): boolean {
  return findPulumiCli() !== undefined;
}

/**
 * `describe` where the Pulumi CLI is on PATH, else `describe.skip` with a message saying what was skipped and
 * why, so that a green run without the CLI never reads as if these tests had passed.
 */
export function describeIfCli(title: string, body: () => void): void {
  if (hasPulumiCli()) {
    describe(title, body);
    return;
  }
  console.warn(`SKIPPED "${title}": no Pulumi CLI on PATH (these tests drive the real engine; install it from ${PULUMI_INSTALL_URL})`);
  describe.skip(`${title} [skipped: no Pulumi CLI on PATH]`, body);
}
