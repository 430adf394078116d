import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { REPO } from "../support/demoCommand";

/**
 * The GitHub Actions workflows of examples/gitops and examples/yaml-gitops, read as GitHub reads them: what runs
 * when, which job holds the stack's update lock, the backend credentials of both routes the READMEs offer, npm
 * caching, and actions on the Node 24 runtime.
 */

/** The first major of each action that runs on Node 24. */
const NODE24_MAJOR: Record<string, number> = {
  "actions/checkout": 5,
  "actions/setup-node": 5,
  "pulumi/actions": 7,
  "aws-actions/configure-aws-credentials": 6,
};

const EXAMPLES = ["gitops", "yaml-gitops"];

describe.each(EXAMPLES)("examples/%s/.github/workflows/infrastructure.yml", (example) => {
  const file = join(REPO, "examples", example, ".github/workflows/infrastructure.yml");
  const text = readFileSync(file, "utf8");
  const workflow: any = load(text);
  const readme = readFileSync(join(REPO, "examples", example, "README.md"), "utf8");
  const jobs = Object.entries<any>(workflow.jobs);
  const pulumiStep = (job: any) => job.steps.find((s: any) => String(s.uses).startsWith("pulumi/actions@") && s.with?.command);
  const backendJobs = jobs.filter(([, job]) => pulumiStep(job));

  test("previews pull requests, and updates on pushes to main", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(workflow.on.push.branches).toEqual(["main"]);
    const commands = Object.fromEntries(backendJobs.map(([name, job]) => [name, [job.if, pulumiStep(job).with.command]]));
    expect(commands.preview).toEqual([expect.stringContaining("github.event_name == 'pull_request'"), "preview"]);
    expect(commands.update).toEqual(["github.event_name == 'push'", "up"]);
    expect(pulumiStep(workflow.jobs.preview).with["comment-on-pr"]).toBe(true);
    expect(workflow.env.PROJECT_DIR).toBe(`examples/${example}`);
  });

  test("only the update job has a concurrency group, which never cancels a running update", () => {
    expect(workflow.concurrency).toBeUndefined();
    const grouped = jobs.filter(([, job]) => job.concurrency).map(([name]) => name);
    expect(grouped).toEqual(["update"]);
    expect(workflow.jobs.update.concurrency).toEqual({ group: expect.any(String), "cancel-in-progress": false });
  });

  test("every job that reaches the backend has credentials for both routes: an OIDC role for S3, an access token for Pulumi Cloud", () => {
    expect(backendJobs.length).toBeGreaterThanOrEqual(2);
    for (const [name, job] of backendJobs) {
      expect([name, job.permissions["id-token"]]).toEqual([name, "write"]);
      const aws = job.steps.find((s: any) => String(s.uses).startsWith("aws-actions/configure-aws-credentials@"));
      expect([name, aws?.if, aws?.with]).toEqual([
        name,
        "vars.AWS_ROLE_ARN != ''",
        { "role-to-assume": "${{ vars.AWS_ROLE_ARN }}", "aws-region": "${{ vars.AWS_REGION }}" },
      ]);
      expect(job.steps.indexOf(aws)).toBeLessThan(job.steps.indexOf(pulumiStep(job)));
      const step = pulumiStep(job);
      expect([name, step.with["cloud-url"], step.with["stack-name"]]).toEqual([name, "${{ vars.PULUMI_BACKEND_URL }}", "production"]);
      expect(step.env).toMatchObject({
        PULUMI_ACCESS_TOKEN: "${{ secrets.PULUMI_ACCESS_TOKEN }}",
        PULUMI_CONFIG_PASSPHRASE: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
        SERVICE_TOKEN: "${{ secrets.SERVICE_TOKEN }}",
        RUNTASK_TOKEN: "${{ secrets.RUNTASK_TOKEN }}",
      });
    }
    // A stack settings file without its secrets settings falls back to the state's, not to the backend's default.
    expect(workflow.env.PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER).toBe("true");
  });

  test("every secret and variable it reads is one the README names", () => {
    const names = new Set([...text.matchAll(/\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}/g)].map((m) => m[1]));
    names.delete("GITHUB_TOKEN");
    const gitopsReadme = readFileSync(join(REPO, "examples/gitops/README.md"), "utf8");
    for (const name of names) expect([name, readme.includes(name) || (example !== "gitops" && gitopsReadme.includes(name))]).toEqual([name, true]);
  });

  test("npm ci from lockfiles that exist, cached by setup-node; actions on the Node 24 runtime", () => {
    for (const [name, job] of jobs) {
      const setupNode = job.steps.find((s: any) => String(s.uses).startsWith("actions/setup-node@"));
      expect([name, setupNode.with.cache]).toEqual([name, "npm"]);
      const lockfiles = String(setupNode.with["cache-dependency-path"]).trim().split("\n");
      for (const lockfile of lockfiles)
        expect(existsSync(join(REPO, lockfile.replace("${{ env.PROJECT_DIR }}", workflow.env.PROJECT_DIR)))).toBe(true);
      for (const step of job.steps.filter((s: any) => s.uses)) {
        const [action, version] = String(step.uses).split("@");
        expect([action, action in NODE24_MAJOR]).toEqual([action, true]);
        expect([step.uses, Number(version.replace(/^v/, "")) >= NODE24_MAJOR[action]]).toEqual([step.uses, true]);
      }
    }
  });
});

test("the offline check waits for the emulator a bounded time", () => {
  const workflow: any = load(readFileSync(join(REPO, "examples/gitops/.github/workflows/infrastructure.yml"), "utf8"));
  const script: string = workflow.jobs["offline-check"].steps.find((s: any) => String(s.run).includes("pulumi-snapshot-runtask-emulator")).run;
  expect(script).toMatch(/timeout \d+ sh -c 'until .*; do sleep [\d.]+; done'/);
  expect(script).toMatch(/\|\| \{ echo "the emulator did not start within a minute" >&2; exit 1; \}/);
});
