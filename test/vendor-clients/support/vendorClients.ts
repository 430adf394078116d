import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN, type Emulator } from "../../../emulator";

/** The program `npm run vendor-clients` builds (toolchain/vendorClients.js), from test/vendor-clients/driver. */
export const VENDOR_CLIENTS = join(__dirname, "../../../.engine/vendor-clients/vendor-clients");

/** One statement the program checked about what a vendor's client got, and whether it held. */
export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface Report {
  checks: Check[];
  made?: Record<string, string>;
}

/** Where the program's clients go: the emulator, its tokens, the organization and three of its workspaces. */
export interface Target {
  emulator: Emulator;
  organization: string;
  workspaces: string[];
  runTaskToken?: string;
  snapshotToken?: string;
  snapshotDir?: string;
  /** How the emulator answers: as the real services (its default), or to the specs' letter (`letterOfSpec`). */
  reading?: "service" | "letter";
}

/**
 * Runs a subcommand of the program against `target` (stdin: `input` as JSON) and answers its JSON. The vendors'
 * settings of this process's environment (`VAULT_*`, `TFE_*`) are left out: the clients read them, and only the
 * flags are to say where they go.
 */
export function runVendorClients<T>(subcommand: string, target: Target, input?: unknown): Promise<T> {
  if (!existsSync(VENDOR_CLIENTS)) {
    throw new Error("the vendors' clients are not built: run `npm run vendor-clients` (npm test does)");
  }
  const args = [
    subcommand,
    ...["-runtask-addr", target.emulator.url, "-runtask-token", target.runTaskToken ?? DEFAULT_RUNTASK_TOKEN],
    ...["-organization", target.organization, "-workspaces", target.workspaces.join(",")],
    ...["-snapshot-addr", target.emulator.url, "-snapshot-token", target.snapshotToken ?? DEFAULT_SNAPSHOT_TOKEN],
    ...["-snapshot-dir", target.snapshotDir ?? "", "-reading", target.reading ?? "service"],
  ];
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VAULT_|TFE_)/.test(k)));
  return new Promise((resolve, reject) => {
    const child = execFile(VENDOR_CLIENTS, args, { env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`vendor-clients ${subcommand} failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
    child.stdin!.end(input === undefined ? "" : JSON.stringify(input));
  });
}
