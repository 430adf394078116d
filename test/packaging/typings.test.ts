import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installPackage } from "../../toolchain/consumerProject";
import { repositoryRoot } from "../../toolchain/repository";

/**
 * The package's typings as consumers resolve them, outside this repository's own `paths` (which map the package's
 * name to its sources): the packed package installed in a project of its own, compiled under each
 * `moduleResolution` a TypeScript program may use. `node` (node10) is what Pulumi's TypeScript templates use, and
 * knows no `exports`: `typesVersions` serves the subpaths there.
 */
let dir: string;

const CONSUMER = `
import { RunTask, SnapshotAutoConfig, WorkspaceRunTask, getRunTask, type RunTaskArgs } from "pulumi-snapshot-runtask";
import { provision, describeEngineEvent, type ProvisioningStackOptions } from "pulumi-snapshot-runtask/automation";
import { startEmulator, type EmulatorOptions } from "pulumi-snapshot-runtask/emulator";
import { configure, providers } from "pulumi-snapshot-runtask/provider";
import shim from "pulumi-snapshot-runtask/shim/runTask";

const args: RunTaskArgs = { url: "https://hooks.example.com/scan" };
const emulatorOptions: EmulatorOptions = { runTask: {} };
export const used = [RunTask, SnapshotAutoConfig, WorkspaceRunTask, getRunTask, args, provision, describeEngineEvent, startEmulator, emulatorOptions, configure, providers, shim];
export type Options = ProvisioningStackOptions;
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "typings-"));
  installPackage(dir);
  writeFileSync(join(dir, "consumer.ts"), CONSUMER);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Compiles `file` of the consumer project with `compilerOptions` (written as `tsconfigName`): what tsc printed. */
function typeCheck(tsconfigName: string, compilerOptions: Record<string, unknown>, file: string): string {
  const tsconfig = join(dir, tsconfigName);
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions, files: [file] }));
  const tsc = join(repositoryRoot(), "node_modules/typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", tsconfig], { cwd: dir, encoding: "utf8" });
    return "";
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

test.each([
  ["node (node10)", { module: "commonjs", moduleResolution: "node" }],
  ["node16", { module: "node16", moduleResolution: "node16" }],
  ["nodenext", { module: "nodenext", moduleResolution: "nodenext" }],
  ["bundler", { module: "esnext", moduleResolution: "bundler" }],
])("the package and each subpath type-check under moduleResolution %s", (mode, options) => {
  const compilerOptions = { ...options, target: "es2022", strict: true, noEmit: true, esModuleInterop: true, skipLibCheck: true, types: ["node"] };
  expect(typeCheck(`tsconfig.${mode.split(" ")[0]}.json`, compilerOptions, "consumer.ts")).toBe("");
});

test("the package's own entry type-checks under the tsconfig of Pulumi's TypeScript template (no skipLibCheck, no esModuleInterop)", () => {
  // What the package's declarations name is compiled too: a validation library's declarations that need
  // esModuleInterop must not be among them.
  const program = `
import { RunTask, SnapshotAutoConfig, getRunTask, getSnapshotStatusOutput, listWorkspaceRunTasks, hasCode } from "pulumi-snapshot-runtask";
export const used = [RunTask, SnapshotAutoConfig, getRunTask, getSnapshotStatusOutput, listWorkspaceRunTasks, hasCode];
`;
  writeFileSync(join(dir, "template.ts"), program);
  const compilerOptions = {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    noEmit: true,
    types: ["node"],
  };
  expect(typeCheck("tsconfig.template.json", compilerOptions, "template.ts")).toBe("");
});
