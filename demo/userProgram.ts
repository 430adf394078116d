import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { load } from "js-yaml";
import { createConsumerProject, type ConsumerProject } from "../toolchain/consumerProject";
import type { StagedProgram } from "./engineDeployment";
import type { ProgramOptions } from "./options";
import { compileProgram } from "./typescriptProgram";
import { stagedPulumiYaml, type ServiceSettings } from "./yamlProject";

type Props = Record<string, unknown>;

/** The runtimes the demo runs: Node.js programs (TypeScript, JavaScript) inline, and YAML through `pulumi`. */
export type Runtime = "nodejs" | "yaml";

/** A user's Pulumi project, as `--program` found it. */
export interface UserProgram {
  /** Its directory, absolute. */
  dir: string;
  /** The project's name (`name:` of its Pulumi.yaml). */
  name: string;
  runtime: Runtime;
  /** Its Pulumi.yaml. */
  document: Props;
}

/** Files and folders of a project that are not its program: dependencies, builds, stack files, dot files. */
const NOT_PROGRAM = new Set(["node_modules", "bin", "dist", "package-lock.json"]);

export function asObject(v: unknown): Props {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Props) : {};
}

function readYaml(file: string): unknown {
  try {
    return load(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file} is not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The project in `dir` (its Pulumi.yaml), or an error that says what is missing. */
export function readUserProgram(dir: string): UserProgram {
  const file = join(dir, "Pulumi.yaml");
  if (!existsSync(file)) throw new Error(`--program: no Pulumi.yaml in ${dir}; give the directory of a Pulumi project`);
  const document = asObject(readYaml(file));
  const name = typeof document.name === "string" ? document.name : undefined;
  if (!name) throw new Error(`${file} has no name:`);
  const runtime = typeof document.runtime === "string" ? document.runtime : asObject(document.runtime).name;
  if (runtime !== "nodejs" && runtime !== "yaml") {
    throw new Error(
      `${file}: runtime ${String(runtime)}: the demo runs nodejs (TypeScript, JavaScript) and yaml programs; ` +
        "run this one with a Pulumi CLI that has its language host",
    );
  }
  return { dir, name, runtime, document };
}

/** A config key as the stack holds it: one without namespace is the project's. */
const fullKey = (project: string, key: string) => (key.includes(":") ? key : `${project}:${key}`);

/** Text for a config value from YAML (structured values as JSON, as `pulumi config get` shows them). */
const configText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The stack config of a run: the project's defaults (`config:` of Pulumi.yaml), then the stack's config file
 * (Pulumi.<stack>.yaml), then what the command line sets. Values the stack file holds encrypted (`secure:`) and the
 * command line does not set are decrypted by `decrypt` (keys as the stack holds them, values in plain text), which
 * fails where it cannot: see secretConfig.ts.
 */
export function userStackConfig(
  program: UserProgram,
  options: Pick<ProgramOptions, "stack" | "config">,
  decrypt: (keys: string[]) => Record<string, string>,
): ConfigMap {
  const config: ConfigMap = {};
  for (const [key, decl] of Object.entries(asObject(program.document.config))) {
    const d = decl !== null && typeof decl === "object" ? (decl as Props) : { value: decl };
    const value = d.value ?? d.default;
    // Declarations of a YAML program's own config keep their defaults to the program, which types them.
    if (value !== undefined && (key.includes(":") || program.runtime === "nodejs")) {
      config[fullKey(program.name, key)] = { value: configText(value), secret: d.secret === true || undefined };
    }
  }
  const given = new Map(Object.entries(options.config).map(([k, v]) => [fullKey(program.name, k), v]));
  const stackFile = join(program.dir, `Pulumi.${options.stack}.yaml`);
  const encrypted: string[] = [];
  if (existsSync(stackFile)) {
    for (const [key, value] of Object.entries(asObject(asObject(readYaml(stackFile)).config))) {
      const full = fullKey(program.name, key);
      if (given.has(full)) continue;
      if (value !== null && typeof value === "object" && "secure" in value) encrypted.push(full);
      else config[full] = { value: configText(value) };
    }
  }
  if (encrypted.length > 0) {
    for (const [key, value] of Object.entries(decrypt(encrypted))) config[key] = { value, secret: true };
  }
  for (const [key, { value, secret }] of given) config[key] = secret ? { value, secret: true } : { value };
  return config;
}

/** A key of the project's namespace as the demo's flags take it (`hmacKey`), others whole (`runtask:token`). */
export function flagKey(project: string, key: string): string {
  return key.startsWith(`${project}:`) ? key.slice(project.length + 1) : key;
}

/** The program's files, relative to its directory: what a `pulumi up` there runs (not its dependencies or builds). */
export function programFiles(dir: string, under = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(dir, under))) {
    const path = join(under, entry);
    if (entry.startsWith(".") || NOT_PROGRAM.has(entry) || /^Pulumi(\..+)?\.yaml$/.test(entry)) continue;
    if (statSync(join(dir, path)).isDirectory()) files.push(...programFiles(dir, path));
    else files.push(path);
  }
  return files;
}

/**
 * The program's main module, relative to its directory, as the Node.js language host finds it: `main:` of
 * Pulumi.yaml (a file or a folder), else `main` of package.json, else index; a TypeScript file stands for the
 * JavaScript it compiles to.
 */
function mainOf(program: UserProgram): string {
  let main = typeof program.document.main === "string" ? program.document.main : undefined;
  const pkg = join(program.dir, "package.json");
  if (!main && existsSync(pkg)) main = (JSON.parse(readFileSync(pkg, "utf8")) as { main?: string }).main;
  main = main ?? ".";
  const abs = resolve(program.dir, main);
  if (existsSync(abs) && statSync(abs).isDirectory()) main = existsSync(join(abs, "index.ts")) ? join(main, "index.ts") : join(main, "index.js");
  return relative(program.dir, resolve(program.dir, main)).replace(/\.ts$/, ".js");
}

/**
 * Copies the program into `dir`, a consumer project (the packed package installed as a user's `npm install` would
 * make it), so that the plugins load the package by name from the program's directory. TypeScript is compiled as the
 * Node.js language host compiles it, type errors stopping the run; a YAML project's Pulumi.yaml is staged for the
 * plugins on PATH (see yamlProject.ts). The stack config files stay behind: the run's config is given to the engine.
 */
export function stageUserProgram(program: UserProgram, dir: string, services?: ServiceSettings): { project: ConsumerProject; staged: StagedProgram } {
  const project = createConsumerProject({ dir, name: program.name });
  const files = programFiles(program.dir).filter((f) => f !== "package.json");
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(program.dir, file), join(dir, file));
  }
  if (program.runtime === "yaml") {
    writeFileSync(join(dir, "Pulumi.yaml"), stagedPulumiYaml(program.document, services));
    return { project, staged: { runtime: "yaml" } };
  }
  compileProgram(dir, files);
  const main = mainOf(program);
  if (!existsSync(join(dir, main)))
    throw new Error(`${program.dir}: the program's main file ${main.replace(/\.js$/, ".ts")} (or .js) does not exist`);
  return { project, staged: { runtime: "nodejs", main } };
}
