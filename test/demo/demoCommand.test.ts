import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { findPulumiCli, missingPulumiCliMessage } from "../../automation/pulumiCli";
import { changesBesidesSame } from "../../demo/main";
import { parseDemoArguments, realServices } from "../../demo/options";
import { describeIfCli } from "../support/pulumiCli";

const REPO = resolve(__dirname, "../..");

/** PATH without any directory that holds a `pulumi` executable. */
const pathWithoutPulumi = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir && !findPulumiCli({ PATH: dir }))
  .join(delimiter);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => done({ code, stdout, stderr }));
  });
}

const builtAt = () => statSync(join(REPO, "dist/sdk/index.js")).mtimeMs;

describe("npm run demo where no Pulumi CLI is installed", () => {
  const env = { ...process.env, PATH: pathWithoutPulumi };
  const expected = `${missingPulumiCliMessage("The demo")}\n`;

  test("the launcher stops at once, before building, says what is missing and how to install it, and exits 1", async () => {
    const before = builtAt();
    const result = await run(process.execPath, ["scripts/demo.js"], env);
    expect(result).toEqual({ code: 1, stdout: "", stderr: expected });
    expect(result.stderr).toContain("https://www.pulumi.com/docs/install/");
    expect(builtAt()).toBe(before);
  });

  test("through npm, the README's command", async () => {
    const npm = process.env.npm_execpath;
    if (!npm) throw new Error("run the tests through npm (npm test, npx jest): npm_execpath names the npm that runs `npm run demo`");
    const result = await run(process.execPath, [npm, "run", "--silent", "demo"], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(expected);
  });

  test("the demo itself checks too, when started without the launcher", async () => {
    const result = await run(process.execPath, ["dist/demo/main.js"], env);
    expect(result).toEqual({ code: 1, stdout: "", stderr: expected });
  });

  test("--help works without the CLI", async () => {
    const result = await run(process.execPath, ["dist/demo/main.js", "--help"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run demo/);
  });
});

describe("demo options", () => {
  test("flags", () => {
    expect(parseDemoArguments(["--keep", "--verbose"])).toEqual({ kind: "run", options: { keep: true, verbose: true, real: undefined } });
    expect(() => parseDemoArguments(["--reall"])).toThrow(/reall/);
  });

  test("--real takes the services from the environment and names every missing variable", () => {
    expect(() => parseDemoArguments(["--real"], { SERVICE_ADDR: "https://s.example" })).toThrow(
      "--real needs these environment variables: SERVICE_TOKEN, RUNTASK_ADDR, RUNTASK_TOKEN, RUNTASK_ORGANIZATION, DEMO_WORKSPACE_ID, DEMO_SNAPSHOT_PATH",
    );
    const env = {
      SERVICE_ADDR: "https://s.example",
      SERVICE_TOKEN: "st",
      RUNTASK_ADDR: "https://r.example",
      RUNTASK_TOKEN: "rt",
      RUNTASK_ORGANIZATION: "acme",
      DEMO_WORKSPACE_ID: "ws-1",
      DEMO_SNAPSHOT_PATH: "/srv/snapshots",
      DEMO_GLOBAL_RUN_TASK: "false",
    };
    expect(realServices(env)).toEqual({
      snapshot: { address: "https://s.example", token: "st" },
      runTask: { address: "https://r.example", token: "rt", organization: "acme" },
      workspaceId: "ws-1",
      snapshotPath: "/srv/snapshots",
      globalEnabled: false,
    });
  });

  test("the second up counts as unchanged only when every resource is the same", () => {
    expect(changesBesidesSame({ same: 4 })).toBeUndefined();
    expect(changesBesidesSame({ same: 3, update: 1, create: 0 })).toBe("1 updated");
  });
});

/** The whole demo, as a user runs it; needs the Pulumi CLI. */
describeIfCli("npm run demo with the Pulumi CLI", () => {
  test("runs preview, up, a second up without changes, destroy, and exits 0", async () => {
    const result = await run(process.execPath, ["dist/demo/main.js"], process.env);
    if (result.code !== 0) console.error(result.stdout, result.stderr);
    expect(result.code).toBe(0);
    // Counts include the stack resource itself.
    expect(result.stdout).toMatch(/preview: 4 to create/);
    expect(result.stdout).toMatch(/snapshot taken at /);
    expect(result.stdout).toMatch(/runTaskHmacKey = \[secret\]/);
    expect(result.stdout).toMatch(/up again: no changes/);
    expect(result.stdout).toMatch(/destroy: 4 deleted/);
    expect(result.stdout).toContain("The demo ran to the end.");
  }, 300_000);
});
