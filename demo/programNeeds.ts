import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { asObject, programFiles, type UserProgram } from "./userProgram";

/** A run task a YAML program imports by `<organization>/<name>`, with the settings the program gives it. */
export interface ImportedTask {
  organization: string;
  name: string;
  url?: string;
  description?: string;
  category?: string;
  enabled?: boolean;
}

/** What the emulator must hold for a program to run against it as against the services it was written for. */
export interface ProgramNeeds {
  /** The organizations the program and its stack config name, `runtask:organization` first. */
  organizations: string[];
  /**
   * Every `ws-...` id the program's files (Pulumi.yaml among them) or its stack config name, with the organization it
   * belongs to (empty for the first the emulator holds).
   */
  workspaces: Map<string, string>;
  /** Run tasks the program imports (the `import` resource option): they exist before its first `up`. */
  imports: ImportedTask[];
}

/**
 * What a program names, read without running it. A workspace belongs to the organization of the provider whose
 * association names it (a YAML program's explicit providers each serve one organization), else to the first.
 */
export function programNeeds(program: UserProgram, config: ConfigMap): ProgramNeeds {
  const constant = constantsOf(program, config);
  const resources = Object.entries(asObject(program.document.resources)).map(
    ([name, r]) => ({ ...asObject(r), name }) as Record<string, unknown> & { name: string },
  );
  const organizationOf = (r: Record<string, unknown>) => constant(asObject(r.properties).organization);
  const providers = new Map(resources.filter((r) => String(r.type).startsWith("pulumi:providers:")).map((r) => [r.name, organizationOf(r)]));
  const imports: ImportedTask[] = [];
  for (const r of resources.filter((r) => r.type === "runtask:index:RunTask")) {
    const [organization, name, ...rest] = String(constant(asObject(r.options).import) ?? "").split("/");
    if (!organization || !name || rest.length > 0) continue;
    const p = asObject(r.properties);
    const enabled = constant(p.enabled);
    imports.push({
      organization,
      name,
      url: constant(p.url),
      description: constant(p.description),
      category: constant(p.category),
      enabled: enabled === undefined ? undefined : enabled === "true",
    });
  }
  const organizations = [
    config["runtask:organization"]?.value,
    ...providers.values(),
    ...resources.map(organizationOf),
    ...imports.map((i) => i.organization),
  ].filter((o): o is string => o !== undefined && o !== "");
  const first = organizations[0];

  const workspaces = new Map<string, string>();
  for (const r of resources.filter((r) => r.type === "runtask:index:WorkspaceRunTask")) {
    const id = constant(asObject(r.properties).workspaceId);
    const provider = /^\$\{([\w-]+)\}$/.exec(String(asObject(r.options).provider ?? ""))?.[1];
    const organization = (provider && providers.get(provider)) || first;
    if (id?.startsWith("ws-")) workspaces.set(id, organization ?? "");
  }
  const files = ["Pulumi.yaml", ...programFiles(program.dir)];
  const texts = [...Object.values(config).map((c) => c.value), ...files.map((f) => readFileSync(join(program.dir, f), "utf8"))];
  for (const text of texts) for (const [id] of text.matchAll(/\bws-[A-Za-z0-9]{4,}\b/g)) if (!workspaces.has(id)) workspaces.set(id, first ?? "");
  return { organizations: [...new Set(organizations)], workspaces, imports };
}

/**
 * The value of a YAML expression where it is a constant or one config value (`${workspaceId}`), as text; undefined
 * where it takes more (another resource's output, a function).
 */
function constantsOf(program: UserProgram, config: ConfigMap): (value: unknown) => string | undefined {
  const declared = asObject(program.document.config);
  return (value) => {
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (typeof value !== "string") return undefined;
    const ref = /^\$\{([\w-]+)\}$/.exec(value)?.[1];
    if (!ref) return value.includes("${") ? undefined : value;
    const set = config[`${program.name}:${ref}`]?.value;
    const decl = asObject(declared[ref]);
    return set ?? (decl.default === undefined ? undefined : String(decl.default));
  };
}
