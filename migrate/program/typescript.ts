import { camel } from "../plan";
import type { Program, ProgramValue } from "./model";

/** The SDK package of each provider plugin (plugin/sdks/nodejs), and the name the program imports it under. */
const SDKS: Record<string, { module: string; as: string }> = {
  runtask: { module: "pulumi-snapshot-runtask-runtask", as: "runtask" },
  snapshot: { module: "pulumi-snapshot-runtask-snapshot", as: "snapshot" },
};

/**
 * The program in TypeScript on the provider plugins' Node.js SDK (the dynamic resources cannot be imported,
 * pulumi/pulumi#16175): each secret from `config.requireSecret`, each task id from its resource, every resource
 * `protect`ed as `pulumi import` left it.
 */
export function typescriptProgram(program: Program): string {
  const packages = [...new Set(program.resources.map((r) => r.type.split(":")[0]))].sort();
  const lines = [`import * as pulumi from "@pulumi/pulumi";`, ...packages.map((p) => `import * as ${SDKS[p].as} from "${SDKS[p].module}";`), ""];
  if (program.secretConfig.length > 0) lines.push("const config = new pulumi.Config();", "");
  const variables = new Map<string, string>();
  const taken = new Set(["pulumi", "config", ...packages.map((p) => SDKS[p].as)]);
  for (const resource of program.resources) {
    let variable = camel(resource.name);
    for (let n = 2; taken.has(variable); n++) variable = `${camel(resource.name)}${n}`;
    taken.add(variable);
    variables.set(resource.name, variable);
  }
  for (const resource of program.resources) {
    const [pkg, , type] = resource.type.split(":");
    const options = [`protect: true`, ...(resource.importId !== undefined ? [`import: ${JSON.stringify(resource.importId)}`] : [])];
    lines.push(`const ${variables.get(resource.name)} = new ${SDKS[pkg].as}.${type}(${JSON.stringify(resource.name)}, {`);
    for (const [key, value] of resource.properties) lines.push(`  ${key}: ${expression(value, variables)},`);
    lines.push(`}, { ${options.join(", ")} });`, "");
  }
  lines.push(`export const ids = {`, ...program.resources.map((r) => `  ${JSON.stringify(r.name)}: ${variables.get(r.name)}.id,`), `};`);
  return `${lines.join("\n")}\n`;
}

function expression(value: ProgramValue, variables: Map<string, string>): string {
  if ("config" in value) return `config.requireSecret(${JSON.stringify(value.config)})`;
  if ("idOf" in value) return `${variables.get(value.idOf)}.id`;
  return JSON.stringify(value.literal);
}

/** The project's `package.json` for the program: the SDKs it imports, at this package's version. */
export function typescriptPackageJson(name: string, program: Program, version: string): string {
  const packages = [...new Set(program.resources.map((r) => r.type.split(":")[0]))].sort();
  const dependencies: Record<string, string> = { "@pulumi/pulumi": "^3.0.0" };
  for (const p of packages) dependencies[SDKS[p].module] = version;
  return `${JSON.stringify({ name, main: "index.ts", private: true, dependencies, devDependencies: { "@types/node": "^22", typescript: "~5.9.0" } }, null, 2)}\n`;
}

/** The tsconfig of Pulumi's TypeScript template. */
export const TYPESCRIPT_TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: "es2020",
      module: "commonjs",
      moduleResolution: "node",
      sourceMap: true,
      experimentalDecorators: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
    },
    files: ["index.ts"],
  },
  null,
  2,
)}\n`;

/** The SDK modules a program of resources of `types` needs installed to run. */
export function sdkModules(types: readonly string[]): string[] {
  return [...new Set(types.map((type) => SDKS[type.split(":")[0]].module))].sort();
}
