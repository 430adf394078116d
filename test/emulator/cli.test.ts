import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseCommandLine } from "../../emulator/commandLine/arguments";
import { READY_LINE, shellQuote } from "../../emulator/commandLine/report";
import { emulatorOptionsOf } from "../../emulator/commandLine/seed";
import { startEmulator } from "../../emulator";

const CLI = resolve(__dirname, "../../dist/emulator/cli.js");

let tmp: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error("the package is not built: run `npm run build` (npm test does)");
  tmp = mkdtempSync(join(tmpdir(), "emulator-cli-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function seedFile(content: unknown): string {
  const file = join(tmp, `seed-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe("command line", () => {
  test("flags seed organizations, workspaces and tokens", () => {
    const cmd = parseCommandLine([
      "--organization",
      "acme",
      "--workspace",
      "app",
      "--workspace",
      "beta/other",
      "--snapshot-token",
      "s1",
      "--runtask-token",
      "r1",
      "--unlicensed",
      "--no-snapshots",
      "--port",
      "8200",
    ]);
    expect(cmd.kind).toBe("run");
    if (cmd.kind !== "run") return;
    expect(cmd.seed.organizations).toEqual([
      { name: "acme", workspaces: [{ name: "app" }] },
      { name: "beta", workspaces: [{ name: "other" }] },
    ]);
    expect(cmd.seed.snapshotTokens).toEqual({ s1: { sudo: true } });
    expect(Object.keys(cmd.seed.runTaskTokens)).toEqual(["r1"]);
    expect(cmd.seed).toMatchObject({ port: 8200, licensed: false, takeSnapshots: false });
  });

  test("a seed file, with flags adding to it", () => {
    const file = seedFile({
      organizations: [{ name: "acme", globalRunTasks: false, workspaces: ["app", { name: "net", id: "ws-fixedid" }] }],
      snapshotTokens: { root: { sudo: true }, reader: { sudo: false } },
      runTaskTokens: ["r1"],
    });
    const cmd = parseCommandLine(["--seed", file, "--workspace", "extra"]);
    if (cmd.kind !== "run") throw new Error("expected run");
    expect(cmd.seed.organizations).toEqual([
      { name: "acme", globalRunTasks: false, workspaces: [{ name: "app" }, { name: "net", id: "ws-fixedid" }, { name: "extra" }] },
    ]);
    expect(cmd.seed.snapshotTokens).toEqual({ root: { sudo: true }, reader: { sudo: false } });
    expect(cmd.seed.runTaskTokens.r1).toMatchObject({ owner: true });
  });

  test("a seed file grants run task permissions per organization", () => {
    const grant = { perOrganization: { acme: { owner: true }, beta: { manageRunTasks: true, manageWorkspaceRunTasks: ["app"] } } };
    const cmd = parseCommandLine(["--seed", seedFile({ runTaskTokens: { scoped: grant } })]);
    if (cmd.kind !== "run") throw new Error("expected run");
    expect(cmd.seed.runTaskTokens.scoped).toEqual(grant);
    expect(() => parseCommandLine(["--seed", seedFile({ runTaskTokens: { t: { perOrganization: { acme: { admin: true } } } } })])).toThrow(
      /runTaskTokens\.t\.perOrganization\.acme/,
    );
  });

  test("--letter-of-spec (or letterOfSpec in a seed file) starts both services on the specs' letter", async () => {
    const optionsOf = (args: string[]) => {
      const cmd = parseCommandLine(args);
      if (cmd.kind !== "run") throw new Error("expected run");
      return emulatorOptionsOf(cmd.seed);
    };
    expect(optionsOf(["--seed", seedFile({ letterOfSpec: true })]).letterOfSpec).toBe(true);
    expect(optionsOf([]).letterOfSpec).toBeUndefined();
    const emulator = await startEmulator(optionsOf(["--letter-of-spec"]));
    try {
      const put = await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config/c`, {
        method: "PUT",
        headers: { "x-service-token": "emulator-snapshot-token" },
        body: "{}",
      });
      const unknownToken = await fetch(`${emulator.url}/api/v2/tasks/task-x`, { headers: { authorization: "Bearer nope" } });
      expect([put.status, unknownToken.status]).toEqual([405, 404]);
    } finally {
      await emulator.close();
    }
  });

  test("usage errors say what is wrong", () => {
    expect(() => parseCommandLine(["--port", "http"])).toThrow(/--port: expected a port number/);
    expect(() => parseCommandLine(["--workspace", "app"])).toThrow(/name an organization/);
    expect(() => parseCommandLine(["--bogus"])).toThrow(/bogus/);
    expect(() => parseCommandLine(["--seed", seedFile({ organisations: [] })])).toThrow(/seed file .*organisations/);
    expect(() => parseCommandLine(["--seed", seedFile({ runTaskTokens: { t: { admin: true } } })])).toThrow(/runTaskTokens\.t/);
    expect(() => parseCommandLine(["--seed", join(tmp, "missing.json")])).toThrow(/seed file .*missing\.json/);
  });

  test("shell quoting", () => {
    expect(shellQuote("http://127.0.0.1:80")).toBe("http://127.0.0.1:80");
    expect(shellQuote("it's $x")).toBe(`'it'\\''s $x'`);
  });
});

interface Running {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the CLI as a user would, and resolves once it has printed `until` (or exited). */
async function startCli(args: string[], until: (line: string) => boolean): Promise<Running> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.once("exit", (code, signal) => res({ code, signal })),
  );
  const lines: string[] = [];
  await new Promise<void>((res) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on("line", (line) => {
      lines.push(line);
      if (until(line)) res();
    });
    void exit.then(() => res());
  });
  return { child, lines, stderr: () => stderr, exit };
}

function exportsOf(lines: string[]): Record<string, string> {
  return Object.fromEntries(lines.filter((l) => l.startsWith("export ")).map((l) => l.slice(7).split("=", 2) as [string, string]));
}

describe("pulumi-snapshot-runtask-emulator", () => {
  test("--vendor-names: the vendors' settings are printed too, and the snapshot service speaks its vendor's names to its client", async () => {
    const run = await startCli(["--vendor-names", "--no-snapshots"], (l) => l === READY_LINE);
    try {
      const env = exportsOf(run.lines);
      expect(env).toMatchObject({
        VAULT_ADDR: env.SERVICE_ADDR,
        VAULT_TOKEN: env.SERVICE_TOKEN,
        TFE_ADDRESS: env.RUNTASK_ADDR,
        TFE_TOKEN: env.RUNTASK_TOKEN,
      });
      const config = `${env.VAULT_ADDR}/v1/sys/storage/raft/snapshot-auto/config/offsite`;
      const body = { interval: "1h", path_prefix: "raft/", storage_type: "aws-s3", aws_s3_bucket: "b", aws_s3_region: "r" };
      const written = await fetch(config, { method: "PUT", headers: { "x-vault-token": env.VAULT_TOKEN }, body: JSON.stringify(body) });
      expect(written.status).toBe(204);
      const read = await fetch(config, { headers: { "x-vault-token": env.VAULT_TOKEN } });
      expect(((await read.json()) as { data: unknown }).data).toMatchObject({
        storage_type: "aws-s3",
        aws_s3_bucket: "b",
        file_prefix: "vault-snapshot",
      });
      const bySpec = await fetch(config, { headers: { "x-service-token": env.SERVICE_TOKEN } });
      expect(((await bySpec.json()) as { data: unknown }).data).toMatchObject({ storage_type: "cloudA-s3", cloudA_s3_bucket: "b" });
    } finally {
      run.child.kill("SIGTERM");
    }
    expect((await run.exit).code).toBe(0);
    // Without the flag, the vendors' settings are not printed.
    const plain = parseCommandLine(["--no-snapshots"]);
    expect(plain.kind === "run" && plain.seed.vendorNames).toBeFalsy();
  });

  test("prints the environment, serves both APIs with the seeded tokens, and stops on SIGTERM", async () => {
    const run = await startCli(
      ["--organization", "acme", "--workspace", "app-production", "--snapshot-token", "s-token", "--runtask-token", "r-token", "--no-snapshots"],
      (l) => l === READY_LINE,
    );
    try {
      const env = exportsOf(run.lines);
      expect(env).toEqual({
        SERVICE_ADDR: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        SERVICE_TOKEN: "s-token",
        RUNTASK_ADDR: env.SERVICE_ADDR,
        RUNTASK_TOKEN: "r-token",
        RUNTASK_ORGANIZATION: "acme",
      });
      const wsLine = run.lines.find((l) => l.includes("acme/app-production"));
      const workspaceId = /(ws-\S+)/.exec(wsLine ?? "")?.[1];
      expect(workspaceId).toBeDefined();

      const write = await fetch(`${env.SERVICE_ADDR}/v1/sys/storage/raft/snapshot-auto/config/nightly`, {
        method: "POST",
        headers: { "x-service-token": env.SERVICE_TOKEN, "content-type": "application/json" },
        body: JSON.stringify({ interval: 3600, path_prefix: "/tmp/x", storage_type: "local", local_max_space: 1000 }),
      });
      expect(write.status).toBe(204);
      const denied = await fetch(`${env.SERVICE_ADDR}/v1/sys/storage/raft/snapshot-auto/config/nightly`, {
        headers: { "x-service-token": "emulator-snapshot-token" },
      });
      expect(denied.status).toBe(403);

      const auth = { authorization: `Bearer ${env.RUNTASK_TOKEN}`, "content-type": "application/vnd.api+json" };
      const created = await fetch(`${env.RUNTASK_ADDR}/api/v2/organizations/acme/tasks`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ data: { type: "tasks", attributes: { name: "scan", url: "https://hooks.example.com/scan", category: "task" } } }),
      });
      expect(created.status).toBe(201);
      const taskId = ((await created.json()) as { data: { id: string } }).data.id;
      const attached = await fetch(`${env.RUNTASK_ADDR}/api/v2/workspaces/${workspaceId}/tasks`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          data: {
            type: "workspace-tasks",
            attributes: { "enforcement-level": "advisory" },
            relationships: { task: { data: { id: taskId, type: "tasks" } } },
          },
        }),
      });
      expect(attached.status).toBe(201);
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toContain("stopping the emulator");
  });

  test("--verbose prints each request with the status it answered, unknown paths too", async () => {
    const run = await startCli(["--verbose", "--no-snapshots"], (l) => l === READY_LINE);
    try {
      const { SERVICE_ADDR } = exportsOf(run.lines);
      const token = { "x-service-token": "emulator-snapshot-token" };
      expect((await fetch(`${SERVICE_ADDR}/v1/sys/storage/raft/snapshot-auto/config/nightly`, { headers: token })).status).toBe(404);
      expect((await fetch(`${SERVICE_ADDR}/v1/sys/storage/raft/snapshot-auto/status/nightly`, { headers: token })).status).toBe(404);
      expect((await fetch(`${SERVICE_ADDR}/elsewhere`)).status).toBe(404);
      const list = await fetch(`${SERVICE_ADDR}/api/v2/organizations/emulator-org/tasks`, {
        headers: { authorization: "Bearer emulator-runtask-token" },
      });
      expect(list.status).toBe(200);
    } finally {
      run.child.kill("SIGTERM");
    }
    await run.exit;
    expect(
      run
        .stderr()
        .split("\n")
        .filter((l) => /^[A-Z]+ \//.test(l)),
    ).toEqual([
      "GET /v1/sys/storage/raft/snapshot-auto/config/nightly 404 (/v1/sys/storage/raft/snapshot-auto/config/:name)",
      expect.stringMatching(/^GET \/v1\/sys\/storage\/raft\/snapshot-auto\/status\/nightly 404 \(/),
      "GET /elsewhere 404 ((unknown))",
      "GET /api/v2/organizations/emulator-org/tasks 200 (/api/v2/organizations/:org/tasks)",
    ]);
  });

  test("--json with a seed file, the defaults for what it leaves out, and SIGINT", async () => {
    const file = seedFile({ organizations: [{ name: "acme", workspaces: ["app", "network"] }] });
    const run = await startCli(["--seed", file, "--json"], () => true);
    try {
      const report = JSON.parse(run.lines[0]);
      expect(report.env).toMatchObject({
        SERVICE_TOKEN: "emulator-snapshot-token",
        RUNTASK_TOKEN: "emulator-runtask-token",
        RUNTASK_ORGANIZATION: "acme",
      });
      expect(report.workspaces.map((w: { name: string }) => w.name)).toEqual(["app", "network"]);
      const list = await fetch(`${report.env.RUNTASK_ADDR}/api/v2/organizations/acme/tasks`, {
        headers: { authorization: "Bearer emulator-runtask-token" },
      });
      expect(list.status).toBe(200);
    } finally {
      run.child.kill("SIGINT");
    }
    expect(await run.exit).toEqual({ code: 0, signal: null });
  });

  test("refuses a host that is not loopback", async () => {
    const run = await startCli(["--host", "0.0.0.0"], () => false);
    expect((await run.exit).code).toBe(1);
    expect(run.stderr()).toMatch(/loopback only.*0\.0\.0\.0/);
    expect(run.lines).toEqual([]);
  });

  test("a usage error exits 2 with the usage; --help exits 0", async () => {
    const bad = await startCli(["--port", "x"], () => false);
    expect((await bad.exit).code).toBe(2);
    expect(bad.stderr()).toMatch(/--port[\s\S]*Usage: pulumi-snapshot-runtask-emulator/);
    const help = await startCli(["--help"], () => false);
    expect((await help.exit).code).toBe(0);
    expect(help.lines[0]).toMatch(/^Usage: pulumi-snapshot-runtask-emulator/);
  });
});
