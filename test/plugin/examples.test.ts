import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { schemaText } from "../../plugin/schema/load";

/**
 * What the YAML and Python examples name is checked against the provider plugins' schemas, quickly and without an
 * engine: every resource type, property, function and result field exists, every required input is given, and the
 * plugins and SDKs the projects point at are this package's. (test/plugin-sdks/python.test.ts runs the Python
 * example through the engine.)
 */
const yaml: { load(text: string): any } = require("js-yaml");
const REPO = resolve(__dirname, "../..");
const schemas = { runtask: JSON.parse(schemaText("runtask")), snapshot: JSON.parse(schemaText("snapshot")) };

function schemaOf(token: string): any {
  const pkg = token.split(":")[0] as keyof typeof schemas;
  expect(Object.keys(schemas)).toContain(pkg);
  return schemas[pkg];
}

/** The calls `pkg.member(...)` of a Python source, with their argument text (parentheses balanced). */
function pythonCalls(source: string): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const m of source.matchAll(/\b(runtask|snapshot)\.(\w+)\(/g)) {
    let depth = 1;
    let end = m.index! + m[0].length;
    for (; end < source.length && depth > 0; end++) depth += source[end] === "(" ? 1 : source[end] === ")" ? -1 : 0;
    found.push([m[1], m[2], source.slice(m.index! + m[0].length, end - 1)]);
  }
  return found;
}

/** `camelCase` as Pulumi's Python code generation spells it (`hmacKey` -> `hmac_key`), and back. */
const camelOf = (snake: string) => snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

describe("examples/yaml-explicit-providers", () => {
  const dir = join(REPO, "examples/yaml-explicit-providers");
  const project = yaml.load(readFileSync(join(dir, "Pulumi.yaml"), "utf8"));
  const schema = schemas.runtask;
  const providers = Object.entries<any>(project.resources).filter(([, r]) => r.type === "pulumi:providers:runtask");

  test("two providers of the runtask package, each with its own organization and secret token, set as the schema's provider takes them", () => {
    // No `packages:`: the engine runs the plugin installed on the machine (a release's, or the npm package's on PATH).
    expect(project.packages).toBeUndefined();
    expect(providers.map(([, r]) => r.properties.organization).sort()).toEqual(["acme", "beta"]);
    for (const [name, provider] of providers) {
      for (const property of Object.keys(provider.properties)) {
        expect([name, property, property in schema.provider.inputProperties]).toEqual([name, property, true]);
      }
      const tokenConfig = /^\$\{(\w+)\}$/.exec(provider.properties.token)![1];
      expect(project.config[tokenConfig]).toMatchObject({ secret: true });
    }
  });

  test("every other resource is in the schema with its required inputs, and names one of the providers", () => {
    const providerRefs = providers.map(([name]) => `\${${name}}`);
    for (const [name, resource] of Object.entries<any>(project.resources)) {
      if (resource.type === "pulumi:providers:runtask") continue;
      const spec = schema.resources[resource.type];
      expect([name, spec === undefined]).toEqual([name, false]);
      for (const property of Object.keys(resource.properties))
        expect([name, property, property in spec.inputProperties]).toEqual([name, property, true]);
      for (const required of spec.requiredInputs ?? []) expect([name, required, required in resource.properties]).toEqual([name, required, true]);
      expect(providerRefs).toContain(resource.options.provider);
    }
  });
});

describe("examples/yaml-gitops", () => {
  const dir = join(REPO, "examples/yaml-gitops");
  const project = yaml.load(readFileSync(join(dir, "Pulumi.yaml"), "utf8"));

  test("it names no packages: the plugins installed on the machine serve it, or the npm package's on PATH", () => {
    expect(project.runtime).toBe("yaml");
    expect(project.packages).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies).toHaveProperty("pulumi-snapshot-runtask");
  });

  test("every resource's type and properties are in the schema, with its required inputs", () => {
    for (const [name, resource] of Object.entries<any>(project.resources)) {
      const spec = schemaOf(resource.type).resources[resource.type];
      expect([name, spec === undefined]).toEqual([name, false]);
      for (const property of Object.keys(resource.properties))
        expect([name, property, property in spec.inputProperties]).toEqual([name, property, true]);
      for (const required of spec.requiredInputs ?? []) expect([name, required, required in resource.properties]).toEqual([name, required, true]);
    }
    expect(Object.values<any>(project.resources).some((r) => typeof r.options?.import === "string")).toBe(true);
  });

  test("functions and the fields read from them and from resources are in the schema", () => {
    for (const variable of Object.values<any>(project.variables)) {
      const invoke = variable["fn::invoke"];
      const spec = schemaOf(invoke.function).functions[invoke.function];
      expect(spec).toBeDefined();
      for (const arg of Object.keys(invoke.arguments ?? {})) expect(spec.inputs.properties).toHaveProperty(arg);
    }
    const text = readFileSync(join(dir, "Pulumi.yaml"), "utf8");
    for (const [, name, field] of text.matchAll(/\$\{([A-Za-z][\w-]*)\.(\w+)\}/g)) {
      const resource = project.resources[name];
      const invoke = project.variables?.[name]?.["fn::invoke"];
      const properties = resource
        ? { id: {}, urn: {}, ...schemaOf(resource.type).resources[resource.type].properties }
        : schemaOf(invoke.function).functions[invoke.function].outputs.properties;
      expect([name, field, field in properties]).toEqual([name, field, true]);
    }
  });

  test("the stack's config sets only keys the plugins declare, or the project's own", () => {
    const stack = yaml.load(readFileSync(join(dir, "Pulumi.production.yaml"), "utf8"));
    for (const key of Object.keys(stack.config)) {
      const [namespace, name] = key.split(":");
      if (namespace === project.name) expect(project.config).toHaveProperty(name);
      else expect(schemas[namespace as keyof typeof schemas].config.variables).toHaveProperty(name);
    }
  });
});

describe("examples/python", () => {
  const dir = join(REPO, "examples/python");
  const source = readFileSync(join(dir, "__main__.py"), "utf8");

  test("the SDKs are this repository's, imported by the names their schemas give them", () => {
    const project = yaml.load(readFileSync(join(dir, "Pulumi.yaml"), "utf8"));
    expect(project.runtime.name).toBe("python");
    const requirements = readFileSync(join(dir, "requirements.txt"), "utf8");
    for (const pkg of ["runtask", "snapshot"] as const) {
      expect(requirements).toContain(`\n../../plugin/sdks/python/${pkg}\n`);
      expect(existsSync(join(REPO, "plugin/sdks/python", pkg, schemas[pkg].language.python.packageName, "__init__.py"))).toBe(true);
      expect(source).toContain(`import ${schemas[pkg].language.python.packageName} as ${pkg}\n`);
    }
  });

  test("every class, keyword argument, function and output it uses is in the schema", () => {
    const calls = pythonCalls(source);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const [pkg, member, body] of calls) {
      const schema = schemas[pkg as keyof typeof schemas];
      const keywords = [...body.matchAll(/(?:^|[(,\s])(\w+)=(?!=)/g)].map((m) => camelOf(m[1]));
      if (/^[A-Z]/.test(member)) {
        const spec = schema.resources[`${pkg}:index:${member}`];
        expect([member, spec === undefined]).toEqual([member, false]);
        for (const k of keywords) expect([member, k, k in spec.inputProperties]).toEqual([member, k, true]);
        for (const required of spec.requiredInputs ?? []) expect([member, required, keywords.includes(required)]).toEqual([member, required, true]);
      } else {
        const fn = schema.functions[`${pkg}:index:${camelOf(member.replace(/_output$/, ""))}`];
        expect([member, fn === undefined]).toEqual([member, false]);
        for (const k of keywords) expect(fn.inputs.properties).toHaveProperty(k);
      }
    }
    const outputs = {
      ...schemas.snapshot.resources["snapshot:index:SnapshotAutoConfig"].properties,
      ...schemas.snapshot.functions["snapshot:index:getSnapshotStatus"].outputs.properties,
    };
    for (const [, field] of source.matchAll(/\b(?:daily|status)\.(\w+)/g)) expect([field, camelOf(field) in outputs]).toEqual([field, true]);
  });
});
