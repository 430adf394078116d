import { isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";
import { proxyRoute } from "../provider/http/proxyRoute";

export const DEMO_USAGE = `Usage: npm run demo [-- options]

Runs the demo's program (demo/program.ts) through the Pulumi engine against the bundled emulator on a free
loopback port: preview, up, a second up that changes nothing, destroy. The engine is a \`pulumi\` CLI on PATH, else
the one \`npm run engine\` builds (built on first use).

Options:
  --keep         keep the stack's state and the emulator's data in .pulumi-demo/ (of the repository, or of the
                 program's directory with --program), where the next run picks them up (after a run that was
                 killed while creating, it takes over what those creates made); without --keep a run destroys what
                 it made and removes that folder
  --real         target the real services named by the environment instead of the emulator:
                   SERVICE_ADDR, SERVICE_TOKEN, RUNTASK_ADDR, RUNTASK_TOKEN, RUNTASK_ORGANIZATION,
                   DEMO_WORKSPACE_ID (the workspace to attach the run task to),
                   DEMO_SNAPSHOT_PATH (the directory on the snapshot service's host for the snapshots),
                   DEMO_GLOBAL_RUN_TASK=false where the organization lacks global run tasks
  --latency <ms> hold each of the emulator's answers <ms> milliseconds once it has carried the request out, as
                 a slow service does: time to try a Ctrl-C, or a kill, while a request is at the service
  --proxy <url>  send every request to the services (the emulator's too, on loopback, which HTTPS_PROXY never
                 reaches) through the proxy at <url> (http://[user:password@]host:port or https://...): the stack
                 config's snapshot:proxy and runtask:proxy, as secrets. Against the emulator, the proxy settings of
                 the stack config and the environment (RUNTASK_PROXY_ADDR, SERVICE_PROXY_ADDR) are not used
  --verbose      print the Pulumi CLI's own output as well
  --help         print this help

Your own program:
  --program <dir>       run the Pulumi project in <dir> instead (TypeScript or JavaScript, or YAML on the provider
                          plugins; a relative <dir> is read from where you ran npm): preview with the engine's
                          diff, up, and destroy unless --keep. Against the emulator, which holds the organization
                          runtask:organization names and every ws-... id the program or its stack config names;
                          with --real, against the services its stack config and the environment name
  --stack <name>        the stack whose config file (Pulumi.<name>.yaml) is read; default dev
  --config <key=value>  set a stack config value (repeatable; a key without namespace is the project's)
  --secret <key=value>  set a secret stack config value (repeatable)`;

/** A user's own Pulumi project to run (`--program`). */
export interface ProgramOptions {
  /** The project's directory, absolute. */
  dir: string;
  stack: string;
  /** Stack config given on the command line, keys as given (`scannerHmacKey`, `runtask:organization`). */
  config: Record<string, { value: string; secret: boolean }>;
  /** Against the services the stack config and the environment name, rather than the emulator. */
  real: boolean;
}

export interface RealServices {
  snapshot: { address: string; token: string };
  runTask: { address: string; token: string; organization: string };
  workspaceId: string;
  snapshotPath: string;
  globalEnabled?: boolean;
}

export interface DemoOptions {
  keep: boolean;
  verbose: boolean;
  /** `--latency`: how long the emulator holds each answer once the request is carried out. */
  latencyMs?: number;
  /** `--proxy`: the proxy every request to the services goes through (a URL, which may hold credentials). */
  proxy?: string;
  /** Present with `--real` (for the demo's own program). */
  real?: RealServices;
  /** Present with `--program`. */
  program?: ProgramOptions;
}

export type DemoCommand = { kind: "help" } | { kind: "run"; options: DemoOptions };

/**
 * The command line. A relative `--program` is read from the caller's directory: npm runs scripts in the package's
 * folder and says where it was started in `INIT_CWD`.
 */
export function parseDemoArguments(argv: string[], env: NodeJS.ProcessEnv = process.env): DemoCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      keep: { type: "boolean" },
      real: { type: "boolean" },
      verbose: { type: "boolean" },
      latency: { type: "string" },
      proxy: { type: "string" },
      program: { type: "string" },
      stack: { type: "string" },
      config: { type: "string", multiple: true },
      secret: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return { kind: "help" };
  if (values.program === undefined) {
    const stray = (["stack", "config", "secret"] as const).filter((flag) => values[flag] !== undefined);
    if (stray.length > 0) throw new Error(`${stray.map((f) => `--${f}`).join(", ")} go with --program <dir>`);
  }
  if (values.latency !== undefined && values.real) throw new Error("--latency slows the emulator, which --real does not use");
  const from = env.INIT_CWD ?? process.cwd();
  return {
    kind: "run",
    options: {
      keep: values.keep ?? false,
      verbose: values.verbose ?? false,
      latencyMs: values.latency === undefined ? undefined : milliseconds(values.latency),
      proxy: values.proxy === undefined ? undefined : proxyUrl(values.proxy),
      real: values.real && values.program === undefined ? realServices(env) : undefined,
      program:
        values.program === undefined
          ? undefined
          : {
              dir: isAbsolute(values.program) ? values.program : resolve(from, values.program),
              stack: values.stack ?? "dev",
              config: Object.fromEntries([
                ...(values.config ?? []).map((pair) => configPair(pair, "--config", false)),
                ...(values.secret ?? []).map((pair) => configPair(pair, "--secret", true)),
              ]),
              real: values.real ?? false,
            },
    },
  };
}

/** The milliseconds of `--latency`. */
function milliseconds(text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`--latency takes milliseconds, a whole number, not "${text}"`);
  return Number(text);
}

/** The URL of `--proxy`, checked as the providers check a proxy setting (the message never repeats it). */
function proxyUrl(text: string): string {
  proxyRoute("--proxy", text);
  return text.trim();
}

/** `key=value` of `--config` or `--secret`. */
function configPair(pair: string, flag: string, secret: boolean): [string, { value: string; secret: boolean }] {
  const at = pair.indexOf("=");
  if (at <= 0) throw new Error(`${flag} takes key=value, not "${pair}"`);
  return [pair.slice(0, at), { value: pair.slice(at + 1), secret }];
}

const REQUIRED = [
  "SERVICE_ADDR",
  "SERVICE_TOKEN",
  "RUNTASK_ADDR",
  "RUNTASK_TOKEN",
  "RUNTASK_ORGANIZATION",
  "DEMO_WORKSPACE_ID",
  "DEMO_SNAPSHOT_PATH",
] as const;

/** The real services from the environment; every missing variable is named at once. */
export function realServices(env: NodeJS.ProcessEnv): RealServices {
  const missing = REQUIRED.filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`--real needs these environment variables: ${missing.join(", ")} (see npm run demo -- --help)`);
  const v = (name: (typeof REQUIRED)[number]) => env[name]!;
  const global = env.DEMO_GLOBAL_RUN_TASK;
  return {
    snapshot: { address: v("SERVICE_ADDR"), token: v("SERVICE_TOKEN") },
    runTask: { address: v("RUNTASK_ADDR"), token: v("RUNTASK_TOKEN"), organization: v("RUNTASK_ORGANIZATION") },
    workspaceId: v("DEMO_WORKSPACE_ID"),
    snapshotPath: v("DEMO_SNAPSHOT_PATH"),
    globalEnabled: global === undefined ? undefined : !["0", "false", "no", "off"].includes(global.toLowerCase()),
  };
}
