import type { Emulator } from "../index";
import { DEFAULT_RUNTASK_TOKEN } from "../runtask/access";
import { DEFAULT_SNAPSHOT_TOKEN } from "../snapshot/service";
import type { Seed } from "./seed";

/**
 * What a user needs to point the provider (or any client) at a running emulator; under `--vendor-names`, the settings
 * the vendors' own clients read as well (Vault's Go client: `VAULT_ADDR`, `VAULT_TOKEN`; go-tfe: `TFE_ADDRESS`,
 * `TFE_TOKEN`).
 */
export interface EmulatorReport {
  env: {
    SERVICE_ADDR: string;
    SERVICE_TOKEN: string;
    RUNTASK_ADDR: string;
    RUNTASK_TOKEN: string;
    RUNTASK_ORGANIZATION: string;
    VAULT_ADDR?: string;
    VAULT_TOKEN?: string;
    TFE_ADDRESS?: string;
    TFE_TOKEN?: string;
  };
  workspaces: { organization: string; name: string; id: string }[];
}

export function reportOf(emulator: Emulator, seed: Seed): EmulatorReport {
  const sudo = Object.entries(seed.snapshotTokens).find(([, grant]) => grant.sudo)?.[0];
  const store = emulator.runTask.store;
  const snapshotToken = sudo ?? Object.keys(seed.snapshotTokens)[0] ?? DEFAULT_SNAPSHOT_TOKEN;
  const runTaskToken = Object.keys(seed.runTaskTokens)[0] ?? DEFAULT_RUNTASK_TOKEN;
  return {
    env: {
      SERVICE_ADDR: emulator.url,
      SERVICE_TOKEN: snapshotToken,
      RUNTASK_ADDR: emulator.url,
      RUNTASK_TOKEN: runTaskToken,
      RUNTASK_ORGANIZATION: [...store.organizations.keys()][0] ?? "",
      ...(seed.vendorNames ? { VAULT_ADDR: emulator.url, VAULT_TOKEN: snapshotToken, TFE_ADDRESS: emulator.url, TFE_TOKEN: runTaskToken } : {}),
    },
    workspaces: [...store.workspaces.values()].map((w) => ({ organization: w.organization, name: w.name, id: w.id })),
  };
}

/** `export NAME=value` lines a POSIX shell can `eval`, then the workspaces as comments. */
export function formatShell(report: EmulatorReport): string {
  const lines = Object.entries(report.env).map(([k, v]) => `export ${k}=${shellQuote(v ?? "")}`);
  if (report.workspaces.length > 0) {
    lines.push("# workspaces (organization/name id):");
    for (const w of report.workspaces) lines.push(`#   ${w.organization}/${w.name} ${w.id}`);
  }
  lines.push(READY_LINE);
  return `${lines.join("\n")}\n`;
}

/** The last line printed once the emulator listens; tools may wait for it. */
export const READY_LINE = "# The emulator runs until interrupted (Ctrl-C or SIGTERM).";

export function formatJson(report: EmulatorReport): string {
  return `${JSON.stringify(report)}\n`;
}

/** Single-quotes a value for a POSIX shell unless it is made only of safe characters. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
