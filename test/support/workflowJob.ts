import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { load } from "js-yaml";
import { descendants } from "../../bench/processTree";

/**
 * A job of a GitHub Actions workflow file, run as a runner runs it, on this machine: its `if:`, its steps' `if:`,
 * `env:` and `working-directory:` read from the file and their `${{ }}` expressions evaluated against the secrets,
 * variables and event a test gives; each `run:` step's script run as written (`bash -e`), in the checkout the test
 * made. What only GitHub's machines do is stood in for, and nothing else: an action (`uses:`) is what the test set up
 * beforehand (the checkout, Node.js and the Pulumi CLI on PATH), and `npm ci` is the installation the test made. An
 * action that does more than install (a `pulumi/actions` command, a step whose `if:` holds where the test cannot
 * stand in) fails the job rather than pass unrun.
 */

/** What the expressions of a run read: `github`, `secrets`, `vars`, `runner`, `env`. */
export interface WorkflowContext {
  /** `github.event_name`, `github.event`, `github.repository`, `github.token`, ... */
  github: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
}

/** The runner machine: its checkout, its folders and the environment its steps start from. */
export interface Runner {
  /** GITHUB_WORKSPACE: the repository as `actions/checkout` leaves it. */
  workspace: string;
  /** RUNNER_TEMP, and where the runner keeps its files (the job summary). */
  temp: string;
  /** The machine's environment (HOME, PATH with the CLI and Node.js the stood-in actions install, ...). */
  env: NodeJS.ProcessEnv;
}

export interface StepResult {
  name: string;
  /** `ran`, `skipped` (its `if:` was false), or `stood in` (an action, `npm ci`). */
  outcome: "ran" | "skipped" | "stood in";
  code?: number | null;
  /** What the step printed, stdout and stderr together, as the runner receives it (workflow commands included). */
  output: string;
}

export interface JobResult {
  ok: boolean;
  steps: StepResult[];
  /** What every step printed, in order. */
  output: string;
}

export interface RunningJob {
  done: Promise<JobResult>;
  /** Kills the job outright (SIGKILL to every process of the running step, the CLI's plugins included). */
  kill(): Promise<void>;
  /** What the job has printed so far. */
  printed(): string;
}

export interface Workflow {
  file: string;
  document: any;
}

export function readWorkflow(file: string): Workflow {
  return { file, document: load(readFileSync(file, "utf8")) };
}

/** The jobs an event starts: those whose `if:` holds. */
export function jobsFor(workflow: Workflow, context: WorkflowContext): string[] {
  const env = stringValues(workflow.document.env ?? {}, context, {});
  return Object.entries<any>(workflow.document.jobs)
    .filter(([, job]) => job.if === undefined || truthy(evaluate(String(job.if), { ...context, env, status: "success" })))
    .map(([name]) => name);
}

/** Starts job `name` of `workflow` on `runner`. */
export function startJob(workflow: Workflow, name: string, context: WorkflowContext, runner: Runner): RunningJob {
  const job = workflow.document.jobs[name];
  if (!job) throw new Error(`${workflow.file} has no job ${name}`);
  let current: number | undefined;
  let killed = false;
  let printed = "";
  const scope = { ...context, runnerTemp: runner.temp };
  const done = (async (): Promise<JobResult> => {
    const env = { ...stringValues(workflow.document.env ?? {}, scope, {}), ...stringValues(job.env ?? {}, scope, {}) };
    const files = runnerFiles(runner, name);
    const steps: StepResult[] = [];
    let failed = false;
    for (const [index, step] of (job.steps as any[]).entries()) {
      const stepName = String(step.name ?? step.uses ?? step.run).split("\n")[0];
      const status = killed ? "cancelled" : failed ? "failure" : "success";
      const condition = step.if === undefined ? "success()" : String(step.if);
      if (killed || !truthy(evaluate(unwrap(condition), { ...scope, env, status }))) {
        steps.push({ name: stepName, outcome: "skipped", output: "" });
        continue;
      }
      if (step.uses) {
        if (!standsIn(step)) throw new Error(`${workflow.file}, job ${name}, step ${index + 1}: the test cannot stand in for ${step.uses}`);
        steps.push({ name: stepName, outcome: "stood in", output: "" });
        continue;
      }
      if (String(step.run).trim() === "npm ci") {
        steps.push({ name: stepName, outcome: "stood in", output: "" });
        continue;
      }
      const stepEnv = { ...env, ...stringValues(step.env ?? {}, scope, env) };
      const cwd = join(runner.workspace, step["working-directory"] ? interpolate(String(step["working-directory"]), { ...scope, env }) : "");
      const script = join(runner.temp, `step-${name}-${index + 1}.sh`);
      writeFileSync(script, interpolate(String(step.run), { ...scope, env: stepEnv }));
      const result = await runScript(
        script,
        cwd,
        { ...runnerEnv(runner, files, context), ...stepEnv, ...pathOf(runner, files) },
        (pid) => (current = pid),
        (chunk) => (printed += chunk),
      );
      current = undefined;
      steps.push({ name: stepName, outcome: "ran", code: result.code, output: result.output });
      Object.assign(env, readEnvFile(files.env));
      if (result.code !== 0) failed = true;
    }
    return { ok: !failed && !killed, steps, output: steps.map((s) => s.output).join("") };
  })();
  return {
    done,
    printed: () => printed,
    kill: async () => {
      killed = true;
      await until(() => current !== undefined);
      killTree(current!);
    },
  };
}

/**
 * The job's log as GitHub shows it: the `::add-mask::` commands taken out, and every value they registered replaced
 * by `***` in the lines after them (a command's value is unescaped first: `%25`, `%0D`, `%0A`).
 */
export function runnerLog(output: string): string {
  const masks: string[] = [];
  const shown: string[] = [];
  for (const line of output.split("\n")) {
    const mask = /^::add-mask::(.*)$/.exec(line);
    if (mask) {
      masks.push(mask[1].replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%"));
      continue;
    }
    shown.push(masks.filter(Boolean).reduce((text, value) => text.split(value).join("***"), line));
  }
  return shown.join("\n");
}

/** The actions the test stands in for: what it set up beforehand, and steps that only install. */
function standsIn(step: any): boolean {
  const action = String(step.uses).split("@")[0];
  if (action === "pulumi/actions") return step.with?.command === undefined;
  return ["actions/checkout", "actions/setup-node"].includes(action);
}

interface RunnerFiles {
  env: string;
  path: string;
  summary: string;
}

function runnerFiles(runner: Runner, job: string): RunnerFiles {
  const dir = join(runner.temp, `_runner_file_commands-${job}`);
  mkdirSync(dir, { recursive: true });
  const files = { env: join(dir, "env"), path: join(dir, "path"), summary: join(dir, "step_summary") };
  for (const file of Object.values(files)) writeFileSync(file, "", { flag: "a" });
  return files;
}

function runnerEnv(runner: Runner, files: RunnerFiles, context: WorkflowContext): NodeJS.ProcessEnv {
  return {
    ...runner.env,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: runner.workspace,
    GITHUB_EVENT_NAME: String(context.github.event_name ?? ""),
    GITHUB_REPOSITORY: String(context.github.repository ?? ""),
    RUNNER_TEMP: runner.temp,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    GITHUB_STEP_SUMMARY: files.summary,
  };
}

/** PATH with the folders earlier steps added through GITHUB_PATH first. */
function pathOf(runner: Runner, files: RunnerFiles): NodeJS.ProcessEnv {
  const added = readFileSync(files.path, "utf8").split("\n").filter(Boolean).reverse();
  return { PATH: [...added, runner.env.PATH ?? ""].join(delimiter) };
}

function readEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

/** The default shell of `run:` steps on Linux runners: `bash -e {0}`. */
function runScript(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  started: (pid: number) => void,
  print: (chunk: string) => void,
): Promise<{ code: number | null; output: string }> {
  if (!existsSync(cwd)) throw new Error(`the step's working directory ${cwd} does not exist`);
  return new Promise((resolve) => {
    const child = spawn("bash", ["-e", script], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    started(child.pid!);
    let output = "";
    const take = (chunk: Buffer) => {
      output += chunk;
      print(String(chunk));
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** SIGKILL to a process and everything under it, each plugin's own process group included, as a lost runner. */
function killTree(root: number): void {
  for (const pid of [root, ...descendants(root)]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // ended already
    }
  }
}

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the job's step");
    await new Promise((r) => setTimeout(r, 20));
  }
}

// ---- expressions ----

interface Scope extends WorkflowContext {
  env: Record<string, string>;
  /** `runner.temp`. */
  runnerTemp?: string;
  /** The job's status so far, for success(), failure(), cancelled(). */
  status?: "success" | "failure" | "cancelled";
}

function stringValues(
  map: Record<string, unknown>,
  context: WorkflowContext & { runnerTemp?: string },
  env: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, interpolate(String(v), { ...context, env })]));
}

/** `${{ expr }}` in a string replaced by the expression's value. */
export function interpolate(text: string, scope: Scope): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => asString(evaluate(expr, scope)));
}

function unwrap(condition: string): string {
  const m = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(condition);
  return m ? m[1] : condition;
}

/** `==` as GitHub has it: strings without case, other types converted to numbers (null and '' are 0). */
function equal(left: unknown, right: unknown): boolean {
  const a = left ?? null;
  const b = right ?? null;
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && a !== null) return a === b;
  const number = (v: unknown) => (v === null ? 0 : typeof v === "boolean" ? Number(v) : typeof v === "string" && v.trim() === "" ? 0 : Number(v));
  return number(a) === number(b);
}

function asString(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

function truthy(value: unknown): boolean {
  return !(value === null || value === undefined || value === false || value === "" || value === 0);
}

/**
 * GitHub's expression language, the part the workflows use: literals, context paths, `!`, `==`, `!=` (strings
 * compared without case), `&&`, `||` (each giving an operand's value), parentheses, and the status functions.
 */
export function evaluate(expression: string, scope: Scope): unknown {
  const tokens = expression.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[()!]|[\w.\-[\]]+|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const or = (): unknown => {
    let left = and();
    while (peek() === "||") {
      next();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): unknown => {
    let left = equality();
    while (peek() === "&&") {
      next();
      const right = equality();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const equality = (): unknown => {
    let left = unary();
    while (peek() === "==" || peek() === "!=") {
      const op = next();
      const right = unary();
      const same = equal(left, right);
      left = op === "==" ? same : !same;
    }
    return left;
  };
  const unary = (): unknown => {
    if (peek() === "!") {
      next();
      return !truthy(unary());
    }
    return primary();
  };
  const primary = (): unknown => {
    const token = next();
    if (token === undefined) throw new Error(`incomplete expression: ${expression}`);
    if (token === "(") {
      const value = or();
      if (next() !== ")") throw new Error(`unbalanced parentheses: ${expression}`);
      return value;
    }
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (/^-?\d+(\.\d+)?$/.test(token)) return Number(token);
    if (token === "true" || token === "false") return token === "true";
    if (token === "null") return null;
    if (peek() === "(") {
      next();
      if (next() !== ")") throw new Error(`functions with arguments are not supported here: ${expression}`);
      const status = scope.status ?? "success";
      const functions: Record<string, boolean> = {
        always: true,
        success: status === "success",
        failure: status === "failure",
        cancelled: status === "cancelled",
      };
      if (!(token in functions)) throw new Error(`unknown function ${token}() in ${expression}`);
      return functions[token];
    }
    const [root, ...path] = token.split(".");
    const roots: Record<string, unknown> = {
      github: scope.github,
      secrets: scope.secrets,
      vars: scope.vars,
      env: scope.env,
      runner: { temp: scope.runnerTemp, os: "Linux" },
    };
    if (!(root in roots)) throw new Error(`unknown context ${root} in ${expression}`);
    return path.reduce<unknown>(
      (value, key) => (value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined),
      roots[root],
    );
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]} in ${expression}`);
  return value;
}
