import { DEFAULT_SNAPSHOT_TOKEN, type Emulator } from "../../emulator";

/** The run task token the scenario emulators are started with (as an owner, `tokens: { [RUNTASK_TOKEN]: ... }`). */
export const RUNTASK_TOKEN = "emulator-runtask-token";

/** A stack's config that points both packages at the emulator, the run tasks in `organization`. */
export function emulatorStackConfig(emulator: Emulator, organization = "acme"): Record<string, string> {
  return {
    "runtask:address": emulator.url,
    "runtask:token": RUNTASK_TOKEN,
    "runtask:organization": organization,
    "snapshot:address": emulator.url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
  };
}
