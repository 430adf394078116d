import type { Program, ProgramValue } from "./model";

/**
 * The program as Pulumi YAML: the `config:` block declaring each secret it reads (`secret: true`, so that the value
 * stays a secret through the program) and the `resources:` block, each secret `${key}` from the stack config, each
 * task id `${task.id}`, every resource `protect`ed as `pulumi import` left it.
 */
export function yamlBlocks(program: Program): string {
  const lines: string[] = [];
  if (program.secretConfig.length > 0) {
    lines.push("config:");
    for (const key of program.secretConfig) lines.push(`  ${key}:`, "    type: string", "    secret: true");
    lines.push("");
  }
  lines.push("resources:");
  for (const resource of program.resources) {
    lines.push(`  ${scalar(resource.name)}:`, `    type: ${resource.type}`);
    if (resource.properties.length > 0) {
      lines.push("    properties:");
      for (const [key, value] of resource.properties) lines.push(...entry(key, value, 6));
    }
    lines.push("    options:", "      protect: true");
    if (resource.importId !== undefined) lines.push(`      import: ${scalar(resource.importId)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** A whole `Pulumi.yaml` for a new project. */
export function yamlProject(name: string, description: string, program: Program): string {
  return `name: ${scalar(name)}\nruntime: yaml\ndescription: ${scalar(description)}\n\n${yamlBlocks(program)}`;
}

/**
 * A project's own `Pulumi.yaml` with the program added: its `config:` block (project-level settings, in block style)
 * gets the program's entries first, and the program's `resources:` block goes at the end.
 */
export function yamlProjectWith(existing: string, program: Program): string {
  const blocks = yamlBlocks(program);
  const config = /^config:[ \t]*\r?\n/m.exec(existing);
  if (!config || program.secretConfig.length === 0) return `${existing.replace(/\s*$/, "\n")}\n${blocks}`;
  const [entries, resources] = [blocks.slice(0, blocks.indexOf("\nresources:")), blocks.slice(blocks.indexOf("\nresources:") + 1)];
  const at = config.index + config[0].length;
  // The entries take the block's own indentation (YAML wants one within a mapping).
  const indent = /^([ \t]+)\S/m.exec(existing.slice(at))?.[1] ?? "  ";
  const own = entries
    .replace(/^config:\n/, "")
    .replace(/\n+$/, "\n")
    .replace(/^( +)/gm, (spaces: string) => indent.repeat(spaces.length / 2));
  const inserted = `${existing.slice(0, at)}${own}${existing.slice(at)}`;
  return `${inserted.replace(/\s*$/, "\n")}\n${resources}`;
}

function entry(key: string, value: ProgramValue, indent: number): string[] {
  const pad = " ".repeat(indent);
  if ("config" in value && value.base64) return [`${pad}${key}:`, `${pad}  fn::fromBase64: \${${value.config}}`];
  if ("config" in value) return [`${pad}${key}: \${${value.config}}`];
  if ("idOf" in value) return [`${pad}${key}: \${${value.idOf}.id}`];
  return literal(key, value.literal, indent);
}

function literal(key: string, value: unknown, indent: number): string[] {
  const pad = " ".repeat(indent);
  if (Array.isArray(value)) return value.length === 0 ? [`${pad}${key}: []`] : [`${pad}${key}:`, ...value.map((v) => `${pad}  - ${scalar(v)}`)];
  if (value !== null && typeof value === "object") {
    return [`${pad}${key}:`, ...Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : literal(k, v, indent + 2)))];
  }
  return [`${pad}${key}: ${scalar(value)}`];
}

/** YAML words that a plain scalar would turn into another type. */
const SPECIAL = /^(true|false|yes|no|on|off|y|n|null|~|[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+|\.inf|\.nan)$/i;

/**
 * A scalar: numbers and booleans as they are, strings plain where YAML reads them back as the same string, else
 * double-quoted (JSON's escapes are YAML's). `${` is written `$${`: Pulumi YAML would read it as an interpolation.
 */
function scalar(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = String(value).replace(/\$\{/g, () => "$${");
  if (/^[A-Za-z0-9/_.][A-Za-z0-9/_.:@+=-]*$/.test(text) && !SPECIAL.test(text) && !text.includes(": ")) return text;
  return JSON.stringify(text);
}

/**
 * Whether Pulumi YAML reads a config value as the string it is. Its language host turns each config value that parses
 * as an integer, a boolean, a float or JSON into that (pulumi-yaml v1.38.1, pkg/server/server.go, `Run`), whatever the
 * `config:` block declares: a JSON key document would reach the provider as an object. Such a secret is kept in the
 * stack config base64-encoded, and the program decodes it (`fn::fromBase64`), to the very string.
 */
export function yamlReadsAsString(value: string): boolean {
  if (value.length > 1 && value.startsWith("0") && !value.startsWith("0.")) return true;
  if (/^[+-]?\d+$/.test(value) || /^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(value)) return false;
  if (
    /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) ||
    /^[+-]?(inf|infinity|nan)$/i.test(value) ||
    /^[+-]?0[xX][0-9a-fA-F_.]+[pP][+-]?\d+$/.test(value)
  ) {
    return false;
  }
  try {
    JSON.parse(value);
    return false;
  } catch {
    return true;
  }
}
