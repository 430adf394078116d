import { DEFAULT_SNAPSHOT_TOKEN, type Emulator } from "../../emulator";
import type { NativeResource } from "../../engine";

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

/**
 * Resources of a provider-plugin program in `project` (stack `dev`): `@id:<task>` in an input stands for the id of
 * that RunTask, which the resource then depends on.
 */
export function nativeResources(project: string) {
  const urn = (token: string, name: string) => `urn:pulumi:dev::${project}::${token}::${name}`;
  const resource = (token: string, name: string, inputs: Record<string, unknown>, extra: Partial<NativeResource> = {}): NativeResource => ({
    urn: urn(token, name),
    token,
    name,
    inputs,
    dependencies: Object.values(inputs)
      .filter((v): v is string => typeof v === "string" && v.startsWith("@id:"))
      .map((v) => urn("runtask:index:RunTask", v.slice(4))),
    ...extra,
  });
  return { urn, resource };
}
