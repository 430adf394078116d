import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ts from "typescript";

const REPO = resolve(__dirname, "../..");
const EXAMPLES = join(REPO, "examples");

const USE_CASES = ["local-snapshots", "cloud-snapshots", "run-task-many-workspaces", "adopt-existing", "automation-api", "gitops"];
/** Programs in other languages, served by the provider plugins; test/plugin/examples.test.ts checks them. */
const OTHER_LANGUAGES = ["yaml-gitops", "yaml-explicit-providers", "python", "go"];

/** The files `npm run typecheck` checks, as tsc reads tsconfig.json. */
function typecheckedFiles(): string[] {
  const { config } = ts.readConfigFile(join(REPO, "tsconfig.json"), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, REPO).fileNames.map((f) => resolve(f));
}

describe("examples", () => {
  test("one directory per use case", () => {
    expect(readdirSync(EXAMPLES).sort()).toEqual([...USE_CASES, ...OTHER_LANGUAGES].sort());
  });

  describe.each(USE_CASES)("%s", (name) => {
    const dir = join(EXAMPLES, name);

    test("is a Pulumi project of its own that depends on the package", () => {
      const yaml = readFileSync(join(dir, "Pulumi.yaml"), "utf8");
      expect(yaml).toMatch(/^name: [a-z0-9-]+$/m);
      expect(yaml).toMatch(/^runtime:\s*\n\s+name: nodejs$/m);
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      expect(pkg.dependencies).toMatchObject({ "pulumi-snapshot-runtask": expect.any(String), "@pulumi/pulumi": expect.any(String) });
      expect(pkg.engines.node).toBe(">=22");
      expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/^# /);
    });

    test("every TypeScript file is type-checked by npm test, and imports the package by name", () => {
      const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
      expect(files).toContain("index.ts");
      const checked = new Set(typecheckedFiles());
      for (const f of files) expect(checked.has(join(dir, f))).toBe(true);
      const sources = files.map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
      expect(sources).toMatch(/from "pulumi-snapshot-runtask(\/automation)?"/);
      expect(sources).not.toMatch(/from "\.\.\//);
    });
  });

  test("the GitOps workflow previews pull requests, updates on merge, and takes credentials from the secret store", () => {
    const workflow = readFileSync(join(EXAMPLES, "gitops/.github/workflows/infrastructure.yml"), "utf8");
    expect(workflow).toMatch(/on:\s*\n\s+pull_request:\s*\n\s+push:\s*\n\s+branches: \[main\]/);
    expect(workflow).toMatch(/run: ci\/pulumi-job\.sh preview production[\s\S]*gh pr comment/);
    expect(workflow).toMatch(/if: github\.event_name == 'push'[\s\S]*run: ci\/pulumi-job\.sh up production/);
    for (const secret of ["PULUMI_CONFIG_PASSPHRASE", "SERVICE_TOKEN", "RUNTASK_TOKEN", "POLICY_CHECK_HMAC_KEY"]) {
      expect(workflow).toContain(`\${{ secrets.${secret} }}`);
    }
    expect(existsSync(join(EXAMPLES, "gitops/Pulumi.production.yaml"))).toBe(true);
  });
});
