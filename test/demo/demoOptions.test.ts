import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { changesBesidesSame, counts } from "../../demo/demo";
import { demoEngine, FIRST_BUILD_NOTICE } from "../../demo/main";
import { parseDemoArguments, realServices } from "../../demo/options";
import { programNeeds } from "../../demo/programNeeds";
import type { PulumiEngine } from "../../toolchain/pulumiEngine";
import { readUserProgram, userStackConfig } from "../../demo/userProgram";
import { stagedPulumiYaml } from "../../demo/yamlProject";
import { clearEmptyMetadata, stackLocks } from "../../demo/stoppedRun";
import { adoptable, holderIn, pendingCreates } from "../../provider/takeover/stackStates";
import { load } from "js-yaml";

/** The demo's command line, how it finds its engine, and what it reads of a user's project before running it. */

let parent: string;
beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), "demo-options-"));
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A new directory holding `files`. */
function project(name: string, files: Record<string, string>): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

describe("the command line", () => {
  test("flags", () => {
    expect(parseDemoArguments(["--keep", "--verbose"], {})).toEqual({ kind: "run", options: { keep: true, verbose: true, real: undefined } });
    expect(parseDemoArguments(["--help"], {})).toEqual({ kind: "help" });
    expect(() => parseDemoArguments(["--reall"], {})).toThrow(/reall/);
    expect(() => parseDemoArguments(["--require-cli"], {})).toThrow(/require-cli/);
  });

  test("a relative --program is read from where npm was started (INIT_CWD), an absolute one as it is", () => {
    const run = (argv: string[], env: NodeJS.ProcessEnv) => {
      const command = parseDemoArguments(argv, env);
      return command.kind === "run" ? command.options.program?.dir : undefined;
    };
    expect(run(["--program", "my-stack"], { INIT_CWD: "/home/me/work" })).toBe("/home/me/work/my-stack");
    expect(run(["--program", "../my-stack"], { INIT_CWD: "/home/me/work" })).toBe("/home/me/my-stack");
    expect(run(["--program", "/srv/stack"], { INIT_CWD: "/home/me/work" })).toBe("/srv/stack");
    expect(run(["--program", "my-stack"], {})).toBe(join(process.cwd(), "my-stack"));
  });

  test("--latency: whole milliseconds, for the emulator only", () => {
    const latency = (argv: string[]) => {
      const command = parseDemoArguments(argv, {});
      return command.kind === "run" ? command.options.latencyMs : undefined;
    };
    expect(latency(["--latency", "1500"])).toBe(1500);
    expect(latency(["--program", ".", "--latency", "0"])).toBe(0);
    expect(() => latency(["--latency", "1.5s"])).toThrow('--latency takes milliseconds, a whole number, not "1.5s"');
    expect(() => latency(["--program", ".", "--real", "--latency", "10"])).toThrow("--latency slows the emulator, which --real does not use");
  });

  test("--proxy: an http:// or https:// proxy URL, checked as the providers check one, never repeated in a message", () => {
    const proxy = (argv: string[]) => {
      const command = parseDemoArguments(argv, {});
      return command.kind === "run" ? command.options.proxy : undefined;
    };
    expect(proxy(["--proxy", "http://me:p%40ss@127.0.0.1:3128"])).toBe("http://me:p%40ss@127.0.0.1:3128");
    expect(proxy(["--program", ".", "--real", "--proxy", " https://proxy.corp.example:443 "])).toBe("https://proxy.corp.example:443");
    expect(() => proxy(["--proxy", "socks5://me:secret-pw@127.0.0.1:1080"])).toThrow(
      "--proxy names a socks5:// proxy, and only http:// and https:// proxies are supported",
    );
    expect(() => proxy(["--proxy", "socks5://me:secret-pw@127.0.0.1:1080"])).not.toThrow(/secret-pw/);
  });

  test("--stack, --config and --secret go with --program", () => {
    expect(() => parseDemoArguments(["--config", "a=b"], {})).toThrow("--config go with --program <dir>");
    expect(() => parseDemoArguments(["--program", ".", "--config", "novalue"], {})).toThrow('--config takes key=value, not "novalue"');
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

  test("counts say that they count the stack resource, where the engine reported its step", () => {
    expect(counts({ result: { create: 4 }, stackOp: "create" }, "planned")).toBe("4 to create, the stack among them");
    expect(counts({ result: { create: 2, same: 2 }, stackOp: "same" })).toBe("2 created, 2 unchanged, the stack among the unchanged");
    expect(counts({ result: { create: 1, same: 3 }, stackOp: "create" }, "planned")).toBe(
      "1 to create, 3 unchanged, the stack among those to create",
    );
    expect(counts({ result: { same: 3 } })).toBe("3 unchanged");
  });

  test("the second up counts as unchanged only when every resource is the same", () => {
    expect(changesBesidesSame({ same: 4 })).toBeUndefined();
    expect(changesBesidesSame({ same: 3, update: 1, create: 0 })).toBe("1 updated");
  });
});

describe("the engine", () => {
  const onPath: PulumiEngine = { cli: "/usr/local/bin/pulumi", source: "path", path: ["/usr/local/bin"] };

  test("a pulumi on PATH (or the project's build) is used as found, nothing built", () => {
    const build = jest.fn();
    const said = jest.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      expect(demoEngine(() => onPath, build)).toBe(onPath);
    } finally {
      said.mockRestore();
    }
    expect(build).not.toHaveBeenCalled();
  });

  test("where there is none, it says that it builds the engine, and that the first build takes minutes, before building", () => {
    const lines: string[] = [];
    const said = jest.spyOn(process.stdout, "write").mockImplementation((text) => (lines.push(String(text)), true));
    try {
      const built = { ...onPath, source: "built" as const };
      expect(
        demoEngine(
          () => undefined,
          () => (lines.push("<build>"), built),
        ),
      ).toBe(built);
    } finally {
      said.mockRestore();
    }
    expect(lines).toEqual([`${FIRST_BUILD_NOTICE}\n`, "<build>"]);
    expect(FIRST_BUILD_NOTICE).toMatch(/^No `pulumi` CLI on PATH, .*building it now \(npm run engine.*first build takes minutes/);
  });
});

describe("a user's project, as the demo reads it", () => {
  test("stack config: the project's defaults, then the stack's file, then the command line", () => {
    const dir = project("cfg", {
      "Pulumi.yaml": "name: cfg\nruntime: nodejs\nconfig:\n  region: { default: north }\n  runtask:organization: from-project\n",
      "Pulumi.prod.yaml": "config:\n  runtask:organization: acme\n  cfg:size: 3\n  cfg:tags: [a, b]\n",
    });
    const program = readUserProgram(dir);
    const options = parseDemoArguments(["--program", dir, "--stack", "prod", "--config", "size=4", "--secret", "token=t"], {});
    if (options.kind !== "run" || !options.options.program) throw new Error("not a program run");
    const decrypt = () => {
      throw new Error("nothing is encrypted");
    };
    expect(userStackConfig(program, options.options.program, decrypt)).toEqual({
      "cfg:region": { value: "north" },
      "runtask:organization": { value: "acme" },
      "cfg:size": { value: "4" },
      "cfg:tags": { value: '["a","b"]' },
      "cfg:token": { value: "t", secret: true },
    });
  });

  test("values the stack file holds encrypted are decrypted, as secrets, unless the command line gives them", () => {
    const dir = project("secure", {
      "Pulumi.yaml": "name: sec\nruntime: nodejs\n",
      "Pulumi.dev.yaml": "encryptionsalt: v1:abc\nconfig:\n  sec:hmacKey:\n    secure: v1:xyz\n  sec:other:\n    secure: v1:uvw\n",
    });
    const program = readUserProgram(dir);
    const asked: string[][] = [];
    const decrypt = (keys: string[]) => (asked.push(keys), Object.fromEntries(keys.map((k) => [k, `plain ${k}`])));
    expect(userStackConfig(program, { stack: "dev", config: { other: { value: "given", secret: true } } }, decrypt)).toEqual({
      "sec:hmacKey": { value: "plain sec:hmacKey", secret: true },
      "sec:other": { value: "given", secret: true },
    });
    expect(asked).toEqual([["sec:hmacKey"]]);
  });

  test("a directory that is not a Pulumi project, or one of a runtime the demo does not run, is named", () => {
    expect(() => readUserProgram(project("empty", {}))).toThrow(/no Pulumi\.yaml in .*empty; give the directory of a Pulumi project/);
    expect(() => readUserProgram(project("py", { "Pulumi.yaml": "name: py\nruntime: python\n" }))).toThrow(
      "runtime python: the demo runs nodejs (TypeScript, JavaScript) and yaml programs; run this one with a Pulumi CLI that has its language host",
    );
  });

  test("what the emulator must hold: workspaces in the organization of the provider that attaches to them, imported tasks", () => {
    const dir = project("needs", {
      "Pulumi.yaml": [
        "name: needs",
        "runtime: yaml",
        "config:",
        "  betaWorkspace: { type: string }",
        "resources:",
        "  beta:",
        "    type: pulumi:providers:runtask",
        "    properties: { address: https://runs.example.com, token: t, organization: beta }",
        "  on-beta:",
        "    type: runtask:index:WorkspaceRunTask",
        "    properties: { workspaceId: '${betaWorkspace}', taskId: task-1, enforcementLevel: advisory }",
        "    options: { provider: '${beta}' }",
        "  on-acme:",
        "    type: runtask:index:WorkspaceRunTask",
        "    properties: { workspaceId: ws-1A2b3C4d5E6f7G8h, taskId: task-2, enforcementLevel: advisory }",
        "  cost:",
        "    type: runtask:index:RunTask",
        "    properties: { url: https://costs.example.com, description: Cost, enabled: true }",
        "    options: { import: acme/cost-estimate }",
        "",
      ].join("\n"),
    });
    const needs = programNeeds(readUserProgram(dir), {
      "runtask:organization": { value: "acme" },
      "needs:betaWorkspace": { value: "ws-9Z8y7X6w5V4u3T2s" },
    });
    expect(needs.organizations).toEqual(["acme", "beta"]);
    expect([...needs.workspaces]).toEqual([
      ["ws-9Z8y7X6w5V4u3T2s", "beta"],
      ["ws-1A2b3C4d5E6f7G8h", "acme"],
    ]);
    expect(needs.imports).toEqual([
      { organization: "acme", name: "cost-estimate", url: "https://costs.example.com", description: "Cost", category: undefined, enabled: true },
    ]);
  });

  test("a YAML project as staged: the `packages:` entries named snapshot or runtask dropped, others kept, provider resources on the emulator's settings", () => {
    const document = {
      name: "p",
      runtime: "yaml",
      packages: { runtask: "./node_modules/pulumi-snapshot-runtask/plugins/runtask", other: "./other" },
      resources: {
        acme: { type: "pulumi:providers:runtask", properties: { address: "https://runs.example.com", token: "${acmeToken}", organization: "acme" } },
      },
    };
    const services = { snapshot: { address: "http://127.0.0.1:1", token: "s" }, runtask: { address: "http://127.0.0.1:1", token: "r" } };
    expect(load(stagedPulumiYaml(document, services))).toEqual({
      name: "p",
      runtime: "yaml",
      packages: { other: "./other" },
      resources: { acme: { type: "pulumi:providers:runtask", properties: { address: "http://127.0.0.1:1", token: "r", organization: "acme" } } },
    });
    expect(load(stagedPulumiYaml({ ...document, packages: { snapshot: "x" } }))).not.toHaveProperty("packages");
  });
});

describe("what a killed `pulumi` leaves in a kept file backend", () => {
  test("empty metadata files are found and removed, whole ones kept", () => {
    const backend = project("killed-backend", {});
    mkdirSync(join(backend, ".pulumi/stacks/p"), { recursive: true });
    writeFileSync(join(backend, ".pulumi/stacks/p/dev.json"), "{}");
    writeFileSync(join(backend, ".pulumi/stacks/p/dev.json.attrs"), "");
    writeFileSync(join(backend, ".pulumi/stacks/p/dev.json.bak.attrs"), '{"md5":null}');
    expect(clearEmptyMetadata(backend)).toEqual([join(backend, ".pulumi/stacks/p/dev.json.attrs")]);
    expect(readdirSync(join(backend, ".pulumi/stacks/p")).sort()).toEqual(["dev.json", "dev.json.bak.attrs"]);
    expect(clearEmptyMetadata(project("no-stack-yet", {}))).toEqual([]);
  });

  test("a lock is stale where its `pulumi` process is gone (or the id now names another program), running otherwise", async () => {
    const backend = project("locked-backend", {});
    const locks = join(backend, ".pulumi/locks/organization/p/dev");
    mkdirSync(locks, { recursive: true });
    const cli = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { argv0: "pulumi", stdio: "ignore" });
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    try {
      const lock = (id: string, pid: number, host = hostname()) =>
        writeFileSync(join(locks, `${id}.json`), JSON.stringify({ pid, username: "u", hostname: host, timestamp: "2026-01-01T00:00:00Z" }));
      lock("a-running", cli.pid!);
      lock("b-gone", gone);
      lock("c-not-pulumi", process.pid);
      lock("d-elsewhere", gone, "another-host");
      writeFileSync(join(locks, "a-running.json.attrs"), "{}");
      expect(stackLocks(backend, "p", "dev").map((l) => [l.pid, l.running])).toEqual([
        [cli.pid, true],
        [gone, false],
        [process.pid, false],
        [gone, true],
      ]);
      expect(stackLocks(backend, "p", "other")).toEqual([]);
    } finally {
      cli.kill();
    }
  });

  test("pending creates: those of the package's resources are taken over, unless another stack holds an object of the same identity", () => {
    const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
    const task = "pulumi-nodejs:dynamic/runtask:RunTask";
    const pending = pendingCreates({
      pending_operations: [
        { type: "creating", resource: { urn: urn(task, "gate"), type: task, inputs: { organization: "acme", name: "gate" } } },
        { type: "updating", resource: { urn: urn(task, "scanner"), type: task, inputs: {} } },
        { type: "creating", resource: { urn: urn("random:index:RandomId", "id"), type: "random:index:RandomId", inputs: {} } },
      ],
    });
    expect(pending.map((p) => [p.urn, adoptable(p)])).toEqual([
      [urn(task, "gate"), true],
      [urn("random:index:RandomId", "id"), false],
    ]);
    const other = (type: string, outputs: Record<string, unknown>) => ({ resources: [{ urn: "urn:pulumi:prod::p::x::y", type, outputs }] });
    // Either route holds the task of that organization and name; another organization's, or an association, does not.
    expect(holderIn(other("runtask:index:RunTask", { organization: "acme", name: "gate" }), pending[0])).toEqual({
      urn: "urn:pulumi:prod::p::x::y",
      how: "recorded",
    });
    expect(holderIn(other(task, { organization: "beta", name: "gate" }), pending[0])).toBeUndefined();
    expect(holderIn(other("runtask:index:WorkspaceRunTask", { organization: "acme", name: "gate" }), pending[0])).toBeUndefined();
    // Another stack creating the same task (its own create pending) holds it too.
    expect(
      holderIn(
        {
          pending_operations: [
            { type: "creating", resource: { urn: "urn:pulumi:prod::p::t::g", type: task, inputs: { organization: "acme", name: "gate" } } },
          ],
        },
        pending[0],
      ),
    ).toEqual({
      urn: "urn:pulumi:prod::p::t::g",
      how: "creating",
    });
    expect(pendingCreates({})).toEqual([]);
  });
});
