import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { load } from "js-yaml";
import * as ts from "typescript";
import { createConsumerProject, type ConsumerProject, type StackConfig } from "../engine";
import type { ProgramOptions } from "./options";

type Props = Record<string, unknown>;

/** The runtimes the engine driver runs: TypeScript or JavaScript programs, and YAML ones on the provider plugins. */
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
const NOT_PROGRAM = new Set(["node_modules", "bin", "dist", "package.json", "package-lock.json"]);

function asObject(v: unknown): Props {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Props) : {};
}

function readYaml(file: string): unknown {
  try {
    return load(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file} is not YAML the engine driver can read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The project in `dir` (its Pulumi.yaml), or an error that says what is missing. */
export function readUserProgram(dir: string): UserProgram {
  const abs = resolve(dir);
  const file = join(abs, "Pulumi.yaml");
  if (!existsSync(file)) throw new Error(`--program ${dir}: no Pulumi.yaml in ${abs}; give the directory of a Pulumi project`);
  const document = asObject(readYaml(file));
  const name = typeof document.name === "string" ? document.name : undefined;
  if (!name) throw new Error(`${file} has no name:`);
  const runtime = typeof document.runtime === "string" ? document.runtime : asObject(document.runtime).name;
  if (runtime !== "nodejs" && runtime !== "yaml") {
    throw new Error(
      `${file}: runtime ${String(runtime)}: the engine driver runs nodejs (TypeScript, JavaScript) and yaml programs; run this one with the Pulumi CLI`,
    );
  }
  return { dir: abs, name, runtime, document };
}

/** A config key as the stack holds it: one without namespace is the project's. */
const fullKey = (project: string, key: string) => (key.includes(":") ? key : `${project}:${key}`);

/** Text for a config value from YAML (structured values as JSON, as `pulumi config get` shows them). */
const configText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The stack config of a run: the project's defaults (`config:` of Pulumi.yaml), then the stack's config file
 * (Pulumi.<stack>.yaml), then what the command line sets. A value the stack file holds encrypted (`secure:`) can be
 * read by the Pulumi CLI only: unless the command line sets it, that is an error naming the flag to use.
 */
export function userStackConfig(program: UserProgram, options: Pick<ProgramOptions, "stack" | "config">): StackConfig {
  const config: StackConfig = {};
  for (const [key, decl] of Object.entries(asObject(program.document.config))) {
    const d = decl !== null && typeof decl === "object" ? (decl as Props) : { value: decl };
    const value = d.value ?? d.default;
    // Declarations of the program's own config (YAML) keep their defaults to the program, which types them.
    if (value !== undefined && (key.includes(":") || program.runtime === "nodejs")) {
      config[fullKey(program.name, key)] = { value: configText(value), secret: d.secret === true || undefined };
    }
  }
  const given = new Map(Object.entries(options.config).map(([k, v]) => [fullKey(program.name, k), v]));
  const stackFile = join(program.dir, `Pulumi.${options.stack}.yaml`);
  if (existsSync(stackFile)) {
    for (const [key, value] of Object.entries(asObject(asObject(readYaml(stackFile)).config))) {
      const full = fullKey(program.name, key);
      if (given.has(full)) continue;
      if (value !== null && typeof value === "object" && "secure" in value) {
        const flagKey = full.startsWith(`${program.name}:`) ? full.slice(program.name.length + 1) : full;
        throw new Error(
          `Pulumi.${options.stack}.yaml holds ${full} encrypted, which only the Pulumi CLI can read: give it with --secret ${flagKey}=<value>`,
        );
      }
      config[full] = { value: configText(value) };
    }
  }
  for (const [key, { value, secret }] of given) config[key] = secret ? { value, secret: true } : { value };
  return config;
}

/**
 * The organizations the emulator holds for a program: `runtask:organization` of its stack config first, then those a
 * YAML program names as constants (its providers' `organization`, and its resources').
 */
export function namedOrganizations(program: UserProgram, config: StackConfig): string[] {
  const named = [config["runtask:organization"]?.value];
  if (program.runtime === "yaml") {
    for (const resource of Object.values(asObject(program.document.resources)))
      named.push(asObject(asObject(resource).properties).organization as string);
  }
  return [...new Set(named.filter((n): n is string => typeof n === "string" && n !== "" && !n.includes("${")))];
}

/** The names of a YAML program's provider resources (`type: pulumi:providers:...`). */
export function explicitProviders(program: UserProgram): string[] {
  if (program.runtime !== "yaml") return [];
  return Object.entries(asObject(program.document.resources))
    .filter(([, r]) => String(asObject(r).type).startsWith("pulumi:providers:"))
    .map(([name]) => name);
}

/** Every `ws-...` id the program's files or its stack config name, for the emulator to hold. */
export function namedWorkspaceIds(program: UserProgram, config: StackConfig): string[] {
  const texts = [...Object.values(config).map((c) => c.value), ...programFiles(program.dir).map((f) => readFileSync(join(program.dir, f), "utf8"))];
  const ids = texts.flatMap((t) => [...t.matchAll(/\bws-[A-Za-z0-9]{4,}\b/g)].map((m) => m[0]));
  return [...new Set(ids)];
}

/** The program's files, relative to its directory: what a `pulumi up` there runs (not its dependencies or builds). */
function programFiles(dir: string, under = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(dir, under))) {
    const path = join(under, entry);
    if (entry.startsWith(".") || NOT_PROGRAM.has(entry) || /^Pulumi\..+\.yaml$/.test(entry)) continue;
    if (statSync(join(dir, path)).isDirectory()) files.push(...programFiles(dir, path));
    else files.push(path);
  }
  return files;
}

/**
 * The program's main JavaScript file, relative to its directory, as the Node.js language host finds it: `main:` of
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
 * Copies the program into `dir`, a consumer project (the packed package installed as a user's `npm install`
 * would), so that the provider plugins load the package by name from the program's directory. TypeScript is
 * transpiled as the Node.js language host does for a TypeScript project; Pulumi.yaml and the other files are copied
 * as they are. The stack config files stay behind: the run's config is given to the engine.
 */
export function stageUserProgram(program: UserProgram, dir: string): { project: ConsumerProject; main: string } {
  const project = createConsumerProject({ dir, project: program.name });
  for (const file of programFiles(program.dir)) {
    const to = join(dir, file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(program.dir, file), to);
    if (file.endsWith(".ts") && !file.endsWith(".d.ts")) {
      const { outputText } = ts.transpileModule(readFileSync(join(program.dir, file), "utf8"), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      });
      writeFileSync(to.replace(/\.ts$/, ".js"), outputText);
    }
  }
  const main = program.runtime === "nodejs" ? mainOf(program) : "Pulumi.yaml";
  if (!existsSync(join(dir, main)))
    throw new Error(`${program.dir}: the program's main file ${main.replace(/\.js$/, ".ts")} (or .js) does not exist`);
  return { project, main };
}
