import ms from "ms";
import { SECRET_SIG, secret, UNKNOWN, type NativeProviderResource, type NativeResource, type PackageName, type StackConfig } from "../engine";

type Props = Record<string, unknown>;

/** What a resource of the state answers: its id and outputs (secrets marked). */
export type HeldLookup = (name: string) => { id: string; outputs: Props } | undefined;

/** Calls a function of a provider plugin (`runtask:index:getRunTask`), as the engine does for a program's invoke. */
export type Invoke = (token: string, args: Props) => Promise<Props>;

/** A Pulumi YAML program (`runtime: yaml`), as far as the engine driver runs it. */
export interface YamlProgram {
  /** The resources, for the engine driver's NativeEngine. */
  resources: NativeResource[];
  /** The explicit provider resources (`type: pulumi:providers:runtask`). */
  providers: NativeProviderResource[];
  /** The type token of each resource, by name (for progress lines). */
  types: Map<string, string>;
  /** The stack outputs (`outputs:`), once the resources exist; a secret output is marked so. */
  outputs(held: HeldLookup): Promise<Record<string, { value: unknown; secret: boolean }>>;
}

const PACKAGES: PackageName[] = ["snapshot", "runtask"];
const RESOURCE_TYPES = ["snapshot:index:SnapshotAutoConfig", "runtask:index:RunTask", "runtask:index:WorkspaceRunTask"];
/** The resource options the engine driver honours; any other stops the program with advice. */
const OPTIONS = ["provider", "dependsOn", "ignoreChanges", "customTimeouts", "import"];

/** Raised for what a Pulumi YAML program may hold but the engine driver does not run. */
export class UnsupportedYaml extends Error {
  constructor(what: string) {
    super(
      `${what}: the engine driver runs a part of Pulumi YAML only (this package's resources, their providers, config, variables, fn::invoke, fn::secret, fn::join and outputs); run this program with the Pulumi CLI`,
    );
  }
}

const isSecret = (v: unknown): v is { value: unknown } => v !== null && typeof v === "object" && (v as Props)[SECRET_SIG] !== undefined;

/** The value behind a secret marker, and whether there was one. */
function unwrap(v: unknown): { value: unknown; secret: boolean } {
  return isSecret(v) ? { value: v.value, secret: true } : { value: v, secret: false };
}

/** Whether anything in `v` is not known yet. */
function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** One `${...}` reference: a name, then `.property`, `[0]` or `["key"]` accessors. */
interface Reference {
  name: string;
  path: (string | number)[];
}

function parseReference(text: string, where: string): Reference {
  const m = /^([A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*|\[\d+\]|\["[^"]*"\])*)$/.exec(text.trim());
  if (!m) throw new Error(`${where}: "\${${text}}" is not a reference the engine driver reads (name, then .property, [index] or ["key"])`);
  const path = [...m[2].matchAll(/\.([A-Za-z_][\w-]*)|\[(\d+)\]|\["([^"]*)"\]/g)].map((p) => p[1] ?? (p[2] !== undefined ? Number(p[2]) : p[3]));
  return { name: m[1], path };
}

/** The parts of a string with `${...}` interpolations: text, and references; `$${` stands for a literal `${`. */
function parseTemplate(text: string, where: string): (string | Reference)[] {
  const parts: (string | Reference)[] = [];
  let rest = text;
  let literal = "";
  while (rest.length > 0) {
    const at = rest.indexOf("${");
    if (at < 0) {
      literal += rest;
      break;
    }
    if (at > 0 && rest[at - 1] === "$") {
      literal += rest.slice(0, at - 1) + "${";
      rest = rest.slice(at + 2);
      continue;
    }
    const end = rest.indexOf("}", at);
    if (end < 0) throw new Error(`${where}: "${text}" has a \${ without its closing }`);
    literal += rest.slice(0, at);
    if (literal) parts.push(literal);
    literal = "";
    parts.push(parseReference(rest.slice(at + 2, end), where));
    rest = rest.slice(end + 1);
  }
  if (literal) parts.push(literal);
  return parts;
}

/** The resource names an expression refers to, through variables too (what a resource depends on). */
function referencedNames(expr: unknown, where: string): Set<string> {
  const names = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === "string") {
      for (const p of parseTemplate(v, where)) if (typeof p !== "string") names.add(p.name);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(expr);
  return names;
}

/** `value` converted to a config's declared type (stack config holds text). */
function typedConfig(key: string, text: string, type: string | undefined): unknown {
  switch (type) {
    case undefined:
    case "string":
    case "String":
      return text;
    case "integer":
    case "Integer":
    case "number":
    case "Number": {
      const n = Number(text);
      if (text.trim() === "" || Number.isNaN(n)) throw new Error(`config ${key}: "${text}" is not a number`);
      return n;
    }
    case "boolean":
    case "Boolean":
      if (text !== "true" && text !== "false") throw new Error(`config ${key}: "${text}" is not true or false`);
      return text === "true";
    default:
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`config ${key}: "${text}" is not JSON, as its type ${type} needs`);
      }
  }
}

function asObject(v: unknown, where: string): Props {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new Error(`${where} must be a mapping`);
  return v as Props;
}

/**
 * Reads a Pulumi YAML program (the parsed Pulumi.yaml) for the engine driver, as the YAML language host would run
 * it: `config` from the stack config (typed, with defaults, secret where declared or set so), `variables`,
 * `resources` of this package's two provider plugins and their explicit providers, and `outputs`. References
 * (`${scanner.id}`, `${nightly.name}`, `${config}`, `${variable.property[0]}`) are resolved against the state as the
 * engine hands it over: a resource not created yet is unknown (a preview). Anything else the language has stops the
 * program with advice to use the Pulumi CLI.
 */
export function readYamlProgram(document: unknown, config: StackConfig, stack: string, invoke: Invoke): YamlProgram {
  const project = asObject(document, "Pulumi.yaml");
  const name = String(project.name ?? "project");
  for (const key of Object.keys(project)) {
    if (
      ![
        "name",
        "runtime",
        "description",
        "packages",
        "config",
        "variables",
        "resources",
        "outputs",
        "main",
        "options",
        "backend",
        "plugins",
      ].includes(key)
    ) {
      throw new UnsupportedYaml(`Pulumi.yaml: "${key}"`);
    }
  }

  // Config: declared keys (with type, default, secret) and any stack config the program refers to by name.
  const configValues = new Map<string, unknown>();
  const missing: string[] = [];
  for (const [key, declaration] of Object.entries(asObject(project.config, "config"))) {
    // A namespaced key (`runtask:organization: acme`) is a value for the stack config, not a declaration.
    if (key.includes(":")) continue;
    const decl = declaration !== null && typeof declaration === "object" ? (declaration as Props) : { default: declaration };
    const set = config[`${name}:${key}`];
    let value: unknown;
    if (set !== undefined) value = typedConfig(key, set.value, decl.type as string | undefined);
    else if (decl.default !== undefined || decl.value !== undefined) value = decl.default ?? decl.value;
    else {
      missing.push(`${decl.secret ? "--secret" : "--config"} ${key}=<value>`);
      continue;
    }
    configValues.set(key, decl.secret || set?.secret ? secret(value) : value);
  }
  if (missing.length > 0) {
    throw new Error(`config the program requires is not set: add it to the stack's config file, or give it with ${missing.join(", ")}`);
  }

  const variables = asObject(project.variables, "variables");
  const resourcesDoc = asObject(project.resources, "resources");
  const kinds = new Map<string, "resource" | "provider">();
  for (const [res, body] of Object.entries(resourcesDoc)) {
    const type = String(asObject(body, `resources.${res}`).type ?? "");
    if (RESOURCE_TYPES.includes(type)) kinds.set(res, "resource");
    else if (PACKAGES.some((p) => type === `pulumi:providers:${p}`)) kinds.set(res, "provider");
    else throw new UnsupportedYaml(`resources.${res}: type "${type}"`);
  }

  const urnOf = (res: string, type: string) => `urn:pulumi:${stack}::${name}::${type}::${res}`;

  /** The value of one reference, against the state (`held`); invokes through `invoke`. */
  const resolve = async (ref: Reference, held: HeldLookup, where: string, seen: string[]): Promise<unknown> => {
    let base: unknown;
    if (ref.name === "pulumi") {
      base = { stack, project: name };
    } else if (kinds.get(ref.name) === "resource") {
      const h = held(ref.name);
      if (!h) return UNKNOWN;
      base = { ...h.outputs, id: h.id, urn: urnOf(ref.name, String(asObject(resourcesDoc[ref.name], ref.name).type)) };
    } else if (kinds.get(ref.name) === "provider") {
      throw new UnsupportedYaml(`${where}: a reference to the provider ${ref.name} outside its resources' provider option`);
    } else if (Object.hasOwn(variables, ref.name)) {
      if (seen.includes(ref.name)) throw new Error(`variables: ${[...seen, ref.name].join(" -> ")} refer to each other`);
      base = await evaluate(variables[ref.name], held, `variables.${ref.name}`, [...seen, ref.name]);
    } else if (configValues.has(ref.name)) {
      base = configValues.get(ref.name);
    } else if (config[`${name}:${ref.name}`] !== undefined) {
      const set = config[`${name}:${ref.name}`];
      base = set.secret ? secret(set.value) : set.value;
    } else {
      throw new Error(`${where}: \${${ref.name}} names no resource, variable or config of the program`);
    }
    let value = base;
    let isSecretValue = false;
    for (const step of ref.path) {
      const { value: inner, secret: s } = unwrap(value);
      isSecretValue ||= s;
      if (inner === UNKNOWN) return UNKNOWN;
      if (inner === null || typeof inner !== "object") throw new Error(`${where}: \${${ref.name}...} has no "${step}"`);
      value = (inner as Props)[step as string];
    }
    return isSecretValue && !isSecret(value) ? secret(value) : value;
  };

  /** An expression: a value whose strings may hold references, or one of the functions the driver runs. */
  const evaluate = async (expr: unknown, held: HeldLookup, where: string, seen: string[] = []): Promise<unknown> => {
    if (typeof expr === "string") {
      const parts = parseTemplate(expr, where);
      if (parts.length === 1 && typeof parts[0] !== "string") return resolve(parts[0], held, where, seen);
      if (parts.every((p) => typeof p === "string")) return parts.join("");
      const values = await Promise.all(parts.map((p) => (typeof p === "string" ? p : resolve(p, held, where, seen))));
      const plain = values.map(unwrap);
      if (plain.some((p) => p.value === UNKNOWN)) return UNKNOWN;
      const text = plain.map((p) => (typeof p.value === "string" ? p.value : JSON.stringify(p.value))).join("");
      return plain.some((p) => p.secret) ? secret(text) : text;
    }
    if (Array.isArray(expr)) return Promise.all(expr.map((e, i) => evaluate(e, held, `${where}[${i}]`, seen)));
    if (expr === null || typeof expr !== "object") return expr;
    const keys = Object.keys(expr);
    const fn = keys.find((k) => k.startsWith("fn::"));
    if (!fn) {
      const entries = await Promise.all(keys.map(async (k) => [k, await evaluate((expr as Props)[k], held, `${where}.${k}`, seen)] as const));
      return Object.fromEntries(entries);
    }
    if (keys.length > 1) throw new Error(`${where}: ${fn} takes the whole mapping`);
    const body = (expr as Props)[fn];
    switch (fn) {
      case "fn::secret": {
        const v = await evaluate(body, held, `${where}.${fn}`, seen);
        return v === UNKNOWN || isSecret(v) ? v : secret(v);
      }
      case "fn::join": {
        const [separator, items] = (await evaluate(body, held, `${where}.${fn}`, seen)) as [unknown, unknown];
        const list = unwrap(items);
        if (!Array.isArray(list.value)) throw new Error(`${where}: fn::join takes [separator, [values...]]`);
        const parts = list.value.map(unwrap);
        if (separator === UNKNOWN || parts.some((p) => p.value === UNKNOWN)) return UNKNOWN;
        const text = parts.map((p) => String(p.value)).join(String(separator));
        return list.secret || parts.some((p) => p.secret) ? secret(text) : text;
      }
      case "fn::invoke": {
        const call = asObject(body, `${where}.fn::invoke`);
        const token = String(call.function ?? "");
        if (!PACKAGES.some((p) => token.startsWith(`${p}:index:`))) throw new UnsupportedYaml(`${where}: fn::invoke of "${token}"`);
        const args = await evaluate(call.arguments ?? {}, held, `${where}.fn::invoke.arguments`, seen);
        // As the language host does: a call whose arguments are not known yet (a preview) is not made.
        if (hasUnknown(args)) return UNKNOWN;
        const result = await invoke(token, asObject(args, `${where}.fn::invoke.arguments`));
        return call.return === undefined ? result : result[String(call.return)];
      }
      default:
        throw new UnsupportedYaml(`${where}: ${fn}`);
    }
  };

  const resources: NativeResource[] = [];
  const providers: NativeProviderResource[] = [];
  const types = new Map<string, string>();
  /** The resources an expression depends on, through the variables it names. */
  const dependenciesOf = (expr: unknown, where: string): Set<string> => {
    const out = new Set<string>();
    const visit = (names: Set<string>, trail: string[]) => {
      for (const n of names) {
        if (kinds.get(n) === "resource") out.add(n);
        else if (Object.hasOwn(variables, n) && !trail.includes(n)) visit(referencedNames(variables[n], `variables.${n}`), [...trail, n]);
      }
    };
    visit(referencedNames(expr, where), []);
    return out;
  };

  for (const [res, bodyValue] of Object.entries(resourcesDoc)) {
    const body = asObject(bodyValue, `resources.${res}`);
    const type = String(body.type);
    types.set(res, type);
    for (const key of Object.keys(body))
      if (!["type", "properties", "options"].includes(key)) throw new UnsupportedYaml(`resources.${res}: "${key}"`);
    const properties = asObject(body.properties, `resources.${res}.properties`);
    const options = asObject(body.options, `resources.${res}.options`);
    for (const key of Object.keys(options)) if (!OPTIONS.includes(key)) throw new UnsupportedYaml(`resources.${res}.options: "${key}"`);

    if (kinds.get(res) === "provider") {
      if (Object.keys(options).length > 0) throw new UnsupportedYaml(`resources.${res}: options of a provider resource`);
      if (dependenciesOf(properties, `resources.${res}`).size > 0) {
        throw new UnsupportedYaml(`resources.${res}: provider settings from other resources' outputs`);
      }
      providers.push({ name: res, package: type.slice("pulumi:providers:".length) as PackageName, inputs: {} });
      continue;
    }

    const provider = options.provider === undefined ? undefined : /^\$\{([\w-]+)\}$/.exec(String(options.provider))?.[1];
    if (options.provider !== undefined && (!provider || kinds.get(provider) !== "provider")) {
      throw new Error(`resources.${res}.options.provider: "${String(options.provider)}" names no provider resource of the program`);
    }
    const dependsOn = (Array.isArray(options.dependsOn) ? options.dependsOn : options.dependsOn === undefined ? [] : [options.dependsOn]).map((d) => {
      const target = /^\$\{([\w-]+)\}$/.exec(String(d))?.[1];
      if (!target || kinds.get(target) !== "resource")
        throw new Error(`resources.${res}.options.dependsOn: "${String(d)}" names no resource of the program`);
      return target;
    });
    const dependencies = [...new Set([...dependenciesOf(properties, `resources.${res}`), ...dependsOn])];
    const timeouts = asObject(options.customTimeouts, `resources.${res}.options.customTimeouts`);
    const seconds = (key: string) => {
      if (timeouts[key] === undefined) return undefined;
      const millis = ms(String(timeouts[key]) as ms.StringValue);
      if (typeof millis !== "number" || Number.isNaN(millis))
        throw new Error(`resources.${res}.options.customTimeouts.${key}: "${String(timeouts[key])}" is not a duration`);
      return millis / 1000;
    };
    resources.push({
      urn: urnOf(res, type),
      token: type,
      name: res,
      inputs: {},
      dependencies: dependencies.map((d) => urnOf(d, String(asObject(resourcesDoc[d], d).type))),
      provider,
      ignoreChanges: Array.isArray(options.ignoreChanges) ? options.ignoreChanges.map(String) : undefined,
      customTimeouts:
        options.customTimeouts === undefined ? undefined : { create: seconds("create"), update: seconds("update"), delete: seconds("delete") },
      importId: options.import === undefined ? undefined : String(options.import),
      evaluate: async (held) => asObject(await evaluate(properties, held, `resources.${res}.properties`), res),
    });
  }

  // Provider settings come from config and constants only (checked above), so they are known at every step.
  for (const p of providers) {
    const body = asObject(resourcesDoc[p.name], p.name);
    const settings = asObject(body.properties, `resources.${p.name}.properties`);
    p.inputs = Object.fromEntries(
      Object.entries(settings).map(([k, v]) => {
        const parts = typeof v === "string" ? parseTemplate(v, `resources.${p.name}.properties.${k}`) : [];
        if (parts.length === 1 && typeof parts[0] !== "string" && configValues.has(parts[0].name) && parts[0].path.length === 0) {
          return [k, unwrap(configValues.get(parts[0].name)).value];
        }
        if (parts.some((part) => typeof part !== "string"))
          throw new UnsupportedYaml(`resources.${p.name}.properties.${k}: a setting other than a config value or a constant`);
        return [k, v];
      }),
    );
  }

  return {
    resources,
    providers,
    types,
    async outputs(held) {
      const result: Record<string, { value: unknown; secret: boolean }> = {};
      for (const [key, expr] of Object.entries(asObject(project.outputs, "outputs"))) {
        result[key] = unwrap(await evaluate(expr, held, `outputs.${key}`));
      }
      return result;
    },
  };
}
