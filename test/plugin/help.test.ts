import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** `pulumi-resource-<name> --help`, as a user who found the executable on PATH runs it: the usage, then exit 0. */
const BIN = (name: string) => resolve(__dirname, `../../dist/plugin/bin/${name}.js`);

test.each(["snapshot", "runtask"])("pulumi-resource-%s --help prints its usage and exits, serving nothing", (name) => {
  if (!existsSync(BIN(name))) throw new Error("the package is not built: run `npm run build` (npm test does)");
  for (const flag of ["--help", "-h"]) {
    const result = spawnSync(process.execPath, [BIN(name), flag], { encoding: "utf8", timeout: 10_000 });
    expect({ status: result.status, signal: result.signal }).toEqual({ status: 0, signal: null });
    expect(result.stdout).toMatch(new RegExp(`^Usage: pulumi-resource-${name} \\[engine-address\\]\\n`));
    expect(result.stdout).toContain(`PULUMI_DEBUG_PROVIDERS=${name}:<port>`);
    expect(result.stdout).not.toMatch(/^\d+$/m);
  }
});
