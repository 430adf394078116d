import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";
import { REPO } from "../support/demoCommand";

/**
 * The GitHub Actions workflows of examples/gitops and examples/yaml-gitops, read as GitHub reads them: what runs
 * when, which job holds the stack's update lock, the backend credentials of the three routes the READMEs offer, npm
 * caching, and actions on the Node 24 runtime. What their Pulumi steps do, run: test/workflows/gitopsJobs.
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
  const pulumiStep = (job: any) => job.steps.find((s: any) => String(s.run).startsWith("ci/pulumi-job.sh "));
  const backendJobs = jobs.filter(([, job]) => pulumiStep(job));

  test("previews pull requests, and updates on pushes to main, through the project's ci/pulumi-job.sh", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(workflow.on.push.branches).toEqual(["main"]);
    const commands = Object.fromEntries(
      backendJobs.map(([name, job]) => [name, [job.if, pulumiStep(job).run, pulumiStep(job)["working-directory"]]]),
    );
    expect(commands.preview).toEqual([
      expect.stringContaining("github.event_name == 'pull_request'"),
      "ci/pulumi-job.sh preview production",
      "${{ env.PROJECT_DIR }}",
    ]);
    expect(commands.update).toEqual(["github.event_name == 'push'", "ci/pulumi-job.sh up production", "${{ env.PROJECT_DIR }}"]);
    const preview = workflow.jobs.preview.steps;
    const comment = preview.find((s: any) => /gh pr comment/.test(String(s.run)));
    expect(preview.indexOf(comment)).toBe(preview.indexOf(pulumiStep(workflow.jobs.preview)) + 1);
    expect(comment.if).toBe("${{ !cancelled() }}");
    expect(comment.env).toEqual({ GH_TOKEN: "${{ github.token }}", PR_NUMBER: "${{ github.event.pull_request.number }}" });
    expect(workflow.env.PROJECT_DIR).toBe(`examples/${example}`);
  });

  test("the job script is the same in both examples, and the CLI installed is the engine the tests run", () => {
    expect(readFileSync(join(REPO, "examples", example, "ci/pulumi-job.sh"), "utf8")).toBe(
      readFileSync(join(REPO, "examples/yaml-gitops/ci/pulumi-job.sh"), "utf8"),
    );
    const pinned = /github\.com\/pulumi\/pulumi\/pkg\/v3 v(\S+)/.exec(readFileSync(join(REPO, "toolchain/go.mod"), "utf8"))![1];
    for (const [name, job] of backendJobs) {
      const cli = job.steps.find((s: any) => String(s.uses).startsWith("pulumi/actions@"));
      expect([name, cli.with]).toEqual([name, { "pulumi-version": pinned }]);
      expect(job.steps.indexOf(cli)).toBeLessThan(job.steps.indexOf(pulumiStep(job)));
    }
  });

  test("only the update job has a concurrency group, which never cancels a running update", () => {
    expect(workflow.concurrency).toBeUndefined();
    const grouped = jobs.filter(([, job]) => job.concurrency).map(([name]) => name);
    expect(grouped).toEqual(["update"]);
    expect(workflow.jobs.update.concurrency).toEqual({ group: expect.any(String), "cancel-in-progress": false });
  });

  test("every job that reaches the backend has credentials for the three routes: an OIDC role for S3, a secret URL for PostgreSQL, an access token for Pulumi Cloud", () => {
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
      expect(step.env).toMatchObject({
        PULUMI_BACKEND_URL: "${{ secrets.PULUMI_BACKEND_URL || vars.PULUMI_BACKEND_URL }}",
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
