import { dump } from "js-yaml";

type Props = Record<string, unknown>;

/** The package's provider plugins, by package name. */
export const PLUGIN_PACKAGES = ["snapshot", "runtask"] as const;

/** Addresses and tokens of the services a run reaches, by package. */
export type ServiceSettings = Record<(typeof PLUGIN_PACKAGES)[number], { address: string; token: string }>;

/**
 * A YAML program's Pulumi.yaml as the demo runs it:
 * - `packages:` entries named `snapshot` or `runtask` go, whatever they point at (a folder, a release): the engine
 *   would load the plugin from there, and the run is of the plugins' executables on PATH. Other entries stay; a
 *   `packages:` left empty goes.
 * - Against the emulator (`services` given), each provider resource of the package (`pulumi:providers:runtask`)
 *   takes the emulator's address and token in place of its own, as the stack's settings do, so that nothing reaches a
 *   real service; its other settings (its organization) stay.
 */
export function stagedPulumiYaml(document: Props, services?: ServiceSettings): string {
  const staged = structuredClone(document);
  const packages = staged.packages as Props | undefined;
  if (packages && typeof packages === "object") {
    for (const name of PLUGIN_PACKAGES) delete packages[name];
    if (Object.keys(packages).length === 0) delete staged.packages;
  }
  if (services) {
    for (const resource of Object.values((staged.resources as Props | undefined) ?? {})) {
      const r = resource as Props;
      const pkg = PLUGIN_PACKAGES.find((p) => r?.type === `pulumi:providers:${p}`);
      if (pkg) r.properties = { ...(r.properties as Props | undefined), ...services[pkg] };
    }
  }
  return dump(staged, { lineWidth: -1, noRefs: true });
}
