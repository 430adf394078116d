import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingPulumiCliMessage } from "../../automation/pulumiCli";
import { changesBesidesSame } from "../../demo/demo";
import { parseDemoArguments, realServices } from "../../demo/options";
import { npmCli, pathWithoutPulumi, REPO, run } from "../support/demoCommand";
import { describeIfCli } from "../support/pulumiCli";

describe("npm run demo -- --require-cli where no Pulumi CLI is installed", () => {
  const env = { ...process.env, PATH: pathWithoutPulumi };
  const expected = `${missingPulumiCliMessage("The demo")}\n`;

  test("the launcher stops at once, before building, says what is missing and how to install it, and exits 1", async () => {
    // A copy of the launcher where there is nothing to build with: had it gone on to build, it would fail
    // another way (no typescript to resolve) and say so on stderr.
    const isolated = mkdtempSync(join(tmpdir(), "demo-launcher-"));
    try {
      mkdirSync(join(isolated, "scripts"));
      cpSync(join(REPO, "scripts/demo.js"), join(isolated, "scripts/demo.js"));
      const result = await run(process.execPath, [join(isolated, "scripts/demo.js"), "--require-cli"], env, { cwd: isolated });
      expect(result).toMatchObject({ code: 1, stdout: "", stderr: expected });
      expect(result.stderr).toContain("https://www.pulumi.com/docs/install/");
    } finally {
      rmSync(isolated, { recursive: true, force: true });
    }
  });

  test("through npm, the README's command", async () => {
    const result = await run(process.execPath, [npmCli(), "run", "--silent", "demo", "--", "--require-cli"], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(expected);
    expect(result.stdout).toBe("");
  });

  test("the demo itself checks too, when started without the launcher", async () => {
    const result = await run(process.execPath, ["dist/demo/main.js", "--require-cli"], env);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: expected });
  });

  test("--keep --real needs the CLI: nothing but the driver could act on the kept stack", async () => {
    const real = {
      SERVICE_ADDR: "https://s.example",
      SERVICE_TOKEN: "st",
      RUNTASK_ADDR: "https://r.example",
      RUNTASK_TOKEN: "rt",
      RUNTASK_ORGANIZATION: "acme",
      DEMO_WORKSPACE_ID: "ws-1",
      DEMO_SNAPSHOT_PATH: "/srv",
    };
    const result = await run(process.execPath, ["dist/demo/main.js", "--keep", "--real"], { ...env, ...real });
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: `${missingPulumiCliMessage("The demo with --keep --real")}\n` });
  });

  test("--help works without the CLI", async () => {
    const result = await run(process.execPath, ["dist/demo/main.js", "--help"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run demo/);
  });
});

describe("demo options", () => {
  test("flags", () => {
    expect(parseDemoArguments(["--keep", "--verbose"])).toEqual({
      kind: "run",
      options: { keep: true, verbose: true, requireCli: false, real: undefined },
    });
    expect(parseDemoArguments(["--require-cli"])).toMatchObject({ kind: "run", options: { requireCli: true } });
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
    const result = await run(process.execPath, ["dist/demo/main.js", "--require-cli"], process.env);
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
