/**
 * A stand-in for the `pulumi` CLI, for the Automation API helper's tests: put on PATH (as `pulumi`, by
 * recordingPulumi.ts), it logs every invocation (arguments, environment, working directory and the settings files
 * in it, exit code) and answers the commands the Automation API runs as the CLI does: the same output formats
 * (`version`, `stack output --json`, `stack history --json`), the same error lines on stderr (which the Automation
 * API turns into StackNotFoundError, StackAlreadyExistsError and ConcurrentUpdateError), the engine events of
 * up, preview and destroy (over the gRPC event stream of CLIs after 3.205, or the event log file before), the
 * stack's lock held for the whole update, SIGINT as a cancellation. It keeps each stack in a directory per
 * backend URL, which it takes, as the CLI does, from PULUMI_BACKEND_URL first and then from Pulumi.yaml's
 * `backend.url`, and resolves the secrets manager as the CLI does: the stack settings file's, else (with
 * PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER) the one in the stack's state, else the backend's default.
 *
 * It does not run the program: what the engine would do comes from the test's scenario
 * (`$RECORDING_PULUMI_DIR/scenario.json`): the resources the program declares, which fail and why, the outputs,
 * how long an update runs, the version to report, and races to stage.
 */
const fs = require("node:fs");
const path = require("node:path");
const crypto = require("node:crypto");
const os = require("node:os");
const { Buffer } = require("node:buffer");
const yaml = require("js-yaml");

const ROOT = process.env.RECORDING_PULUMI_DIR;
if (!ROOT) {
  process.stderr.write("error: RECORDING_PULUMI_DIR is not set\n");
  process.exit(2);
}
const scenario = readJson(path.join(ROOT, "scenario.json"), {});
const args = process.argv.slice(2);
const started = new Date().toISOString();
let stdinText;

function readJson(file, fallback) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return fallback;
  }
}

function settingsFiles() {
  const files = {};
  for (const name of fs.readdirSync(process.cwd())) {
    if (/^Pulumi(\..+)?\.ya?ml$/.test(name)) files[name] = fs.readFileSync(path.join(process.cwd(), name), "utf8");
  }
  return files;
}

const filesAtStart = settingsFiles();

/** Appends this invocation to the log, then exits. */
function finish(code) {
  const call = {
    args,
    env: process.env,
    cwd: process.cwd(),
    files: filesAtStart,
    stdin: stdinText,
    code,
    pid: process.pid,
    started,
    ended: new Date().toISOString(),
  };
  fs.appendFileSync(path.join(ROOT, "calls.jsonl"), JSON.stringify(call) + "\n");
  process.exit(code);
}

function fail(message, code = 255) {
  process.stderr.write(`error: ${message}\n`);
  finish(code);
}

function flag(name) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** `--client=...` and `--event-log x`, as the Automation API passes them. */
function flagValue(name) {
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline ? inline.slice(name.length + 1) : flag(name);
}

function project() {
  const file = path.join(process.cwd(), "Pulumi.yaml");
  if (!fs.existsSync(file)) fail(`no Pulumi.yaml project file found (searching upwards from ${process.cwd()})`);
  return yaml.load(fs.readFileSync(file, "utf8"));
}

/** The CLI's choice of backend: PULUMI_BACKEND_URL, then the project's backend.url. */
function backendUrl() {
  const url = process.env.PULUMI_BACKEND_URL || project().backend?.url;
  if (!url) fail("PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions");
  return url;
}

function isCloud(url) {
  return /^https?:\/\//.test(url);
}

function stackDir(url = backendUrl()) {
  const dir = path.join(ROOT, "backends", encodeURIComponent(url), project().name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const stackFile = (name) => path.join(stackDir(), `${name}.json`);
const lockFile = (name) => path.join(stackDir(), `${name}.lock`);

function loadStack(name) {
  const stack = readJson(stackFile(name), undefined);
  if (!stack) fail(`no stack named '${name}' found`);
  return stack;
}

function saveStack(name, stack) {
  fs.writeFileSync(stackFile(name), JSON.stringify(stack, null, 2));
}

/** `$PULUMI_HOME/workspaces/<project>-<sha1 of Pulumi.yaml's path>-workspace.json`: the project directory's selected stack. */
function rememberSelection(name) {
  const home = process.env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
  const hash = crypto.createHash("sha1").update(path.join(process.cwd(), "Pulumi.yaml")).digest("hex");
  fs.mkdirSync(path.join(home, "workspaces"), { recursive: true });
  fs.writeFileSync(path.join(home, "workspaces", `${project().name}-${hash}-workspace.json`), JSON.stringify({ stack: name }));
}

function stackSettingsPath(name) {
  return path.join(process.cwd(), `Pulumi.${name.split("/").pop()}.yaml`);
}

function loadStackSettings(name) {
  const file = stackSettingsPath(name);
  return fs.existsSync(file) ? (yaml.load(fs.readFileSync(file, "utf8")) ?? {}) : {};
}

function saveStackSettings(name, settings) {
  fs.writeFileSync(stackSettingsPath(name), yaml.dump(settings));
}

const hash = (text) => crypto.createHash("sha256").update(text).digest("hex");

function passphrase() {
  if (process.env.PULUMI_CONFIG_PASSPHRASE !== undefined) return process.env.PULUMI_CONFIG_PASSPHRASE;
  if (process.env.PULUMI_CONFIG_PASSPHRASE_FILE) return fs.readFileSync(process.env.PULUMI_CONFIG_PASSPHRASE_FILE, "utf8").trim();
  return undefined;
}

/** A secrets manager of the given kind, failing as the CLI does when it cannot be had. */
function usableManager(manager, prefix) {
  if (manager.type !== "passphrase") return manager;
  const phrase = passphrase();
  if (phrase === undefined)
    fail(`${prefix}passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables`);
  if (manager.check && manager.check !== hash(phrase)) {
    fail(
      `${prefix}incorrect passphrase, please set PULUMI_CONFIG_PASSPHRASE to the correct passphrase or set PULUMI_CONFIG_PASSPHRASE_FILE to a file containing the passphrase`,
    );
  }
  return { type: "passphrase", check: hash(phrase) };
}

/**
 * The secrets manager of a run, as the CLI picks it (pkg/cmd/pulumi/stack/secrets.go): the stack settings file's,
 * else the state's when PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER is set, else the backend's default.
 */
function secretsManager(name, stack, prefix = "") {
  const settings = loadStackSettings(name);
  if (settings.secretsprovider && !["passphrase", "default"].includes(settings.secretsprovider)) {
    return { type: "cloud", url: settings.secretsprovider };
  }
  if (settings.encryptionsalt) return usableManager({ type: "passphrase", check: stack.secretsManager.check }, prefix);
  if (["1", "true"].includes(String(process.env.PULUMI_FALLBACK_TO_STATE_SECRETS_MANAGER).toLowerCase())) {
    return usableManager(stack.secretsManager, prefix);
  }
  return usableManager(isCloud(backendUrl()) ? { type: "service" } : { type: "passphrase" }, prefix);
}

/** What a stack settings file records of a secrets manager. */
function settingsOf(manager) {
  if (manager.type === "cloud") return { secretsprovider: manager.url, encryptedkey: Buffer.from(`key-for-${manager.url}`).toString("base64") };
  if (manager.type === "passphrase") return { encryptionsalt: "v1:c2FsdA==:v1:Y2hlY2s=" };
  return {};
}

const encrypt = (value) => `v1:${Buffer.from(`enc:${value}`).toString("base64")}`;

function readStdin() {
  try {
    stdinText = fs.readFileSync(0, "utf8");
  } catch {
    stdinText = "";
  }
  return stdinText.replace(/\r?\n$/, "");
}

function stackInit() {
  const name = args[2];
  if (scenario.createdElsewhereBeforeInit) {
    // A racing call of another process creates the stack between our select and our init.
    delete scenario.createdElsewhereBeforeInit;
    fs.writeFileSync(path.join(ROOT, "scenario.json"), JSON.stringify(scenario));
    saveStack(name, { secretsManager: { type: "passphrase", check: hash(passphrase() ?? "") }, resources: [], outputs: {}, history: [] });
  }
  const provider = flag("--secrets-provider");
  let manager;
  if (!provider || provider === "default") manager = usableManager(isCloud(backendUrl()) ? { type: "service" } : { type: "passphrase" }, "");
  else if (provider === "passphrase") manager = usableManager({ type: "passphrase" }, "");
  else manager = { type: "cloud", url: provider };
  let fd;
  try {
    fd = fs.openSync(stackFile(name), "wx");
  } catch {
    fail(`stack '${name}' already exists`);
  }
  fs.writeSync(fd, JSON.stringify({ secretsManager: manager, resources: [], outputs: {}, history: [] }, null, 2));
  fs.closeSync(fd);
  saveStackSettings(name, { ...loadStackSettings(name), ...settingsOf(manager) });
  rememberSelection(name);
  process.stdout.write(`Created stack '${name}'\n`);
  finish(0);
}

function stackSelect() {
  const name = flag("--stack");
  loadStack(name);
  rememberSelection(name);
  finish(0);
}

function stackRm() {
  const name = args
    .filter((a) => !a.startsWith("--"))
    .slice(2)
    .pop();
  const stack = loadStack(name);
  if (stack.resources.length > 0 && !args.includes("--force")) {
    fail(
      `'${name}' still has resources; removal rejected. Possible actions:\n- Make sure that '${name}' is the stack that you want to destroy\n- Run \`pulumi destroy\` to delete the resources, then run \`pulumi stack rm\``,
    );
  }
  fs.rmSync(stackFile(name));
  process.stdout.write(`Stack '${name}' has been removed!\n`);
  finish(0);
}

function setConfigValues(name, entries) {
  const stack = loadStack(name);
  const settings = loadStackSettings(name);
  if (entries.some((e) => e.secret)) Object.assign(settings, settingsOf(secretsManager(name, stack)));
  settings.config = settings.config ?? {};
  const projectName = project().name;
  for (const { key, value, secret } of entries) {
    const fullKey = key.includes(":") ? key : `${projectName}:${key}`;
    settings.config[fullKey] = secret ? { secure: encrypt(value) } : value;
  }
  saveStackSettings(name, settings);
  finish(0);
}

function configSetAll() {
  const entries = [];
  for (let i = 2; i < args.length; i++) {
    if (args[i] === "--plaintext" || args[i] === "--secret") {
      const [key, ...rest] = args[++i].split("=");
      entries.push({ key, value: rest.join("="), secret: args[i - 1] === "--secret" });
    }
  }
  setConfigValues(flag("--stack"), entries);
}

function configSet() {
  const dashes = args.indexOf("--");
  const positional = dashes >= 0 ? args.slice(dashes + 1) : args.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--stack");
  const [key, given] = positional;
  const value = given !== undefined ? given : readStdin();
  setConfigValues(flag("--stack"), [{ key, value, secret: args.includes("--secret") }]);
}

// Engine events: numbered, timestamped, sent as the CLI sends them.
let sequence = 0;
const events = [];
function emit(event) {
  events.push({ sequence: sequence++, timestamp: Math.floor(Date.now() / 1000), ...event });
}

async function deliverEvents(target) {
  if (!target) return;
  const lines = events.map((e) => JSON.stringify(e));
  if (!target.startsWith("tcp://")) {
    fs.appendFileSync(target, lines.map((l) => l + "\n").join(""));
    return;
  }
  const grpc = require("@grpc/grpc-js");
  const { EventsClient } = require("@pulumi/pulumi/proto/events_grpc_pb");
  const { EventRequest } = require("@pulumi/pulumi/proto/events_pb");
  const client = new EventsClient(target.slice("tcp://".length), grpc.credentials.createInsecure());
  await new Promise((resolve, reject) => {
    const call = client.streamEvents((err) => (err ? reject(err) : resolve()));
    for (const line of lines) call.write(new EventRequest().setEvent(line));
    call.end();
  });
  client.close();
}

function urnOf(stackName, resource) {
  return `urn:pulumi:${stackName}::${project().name}::${resource.type}::${resource.name}`;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Takes the stack's lock as an update does, failing as the backend does when another update holds it. */
function lock(name) {
  try {
    fs.writeFileSync(lockFile(name), JSON.stringify({ pid: process.pid, timestamp: started }), { flag: "wx" });
  } catch {
    if (isCloud(backendUrl())) fail("[409] Conflict: Another update is currently in progress.");
    fail(
      "the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
        `  ${backendUrl()}/.pulumi/locks/${name}: created by tester@ci (pid 1)`,
    );
  }
  process.on("exit", () => fs.rmSync(lockFile(name), { force: true }));
}

async function engineRun(kind) {
  const name = flag("--stack");
  const stack = loadStack(name);
  const manager = secretsManager(name, stack, "getting secrets manager: ");
  const dryRun = kind === "preview";
  if (!dryRun) lock(name);
  let cancelled = false;
  process.on("SIGINT", () => (cancelled = true));
  emit({ preludeEvent: { config: {} } });

  const wanted = kind === "destroy" ? [] : (scenario.resources ?? []);
  const failing = new Map((scenario.failures ?? []).map((f) => [f.name, f.message]));
  const have = new Map(stack.resources.map((r) => [r.name, r]));
  const steps = [
    ...wanted.map((r) => ({ resource: r, op: have.has(r.name) ? "same" : "create" })),
    ...stack.resources.filter((r) => !wanted.some((w) => w.name === r.name)).map((r) => ({ resource: r, op: "delete" })),
  ];
  const changes = {};
  const kept = new Map(have);
  const failed = [];
  const runMs = scenario.runMs ?? 0;
  const deadline = Date.now() + runMs;
  while (Date.now() < deadline && !cancelled) await sleep(Math.min(50, deadline - Date.now()));
  process.stdout.write(`${dryRun ? "Previewing update" : kind === "destroy" ? "Destroying" : "Updating"} (${name}):\n`);
  for (const { resource, op } of cancelled ? [] : steps) {
    const urn = urnOf(name, resource);
    const metadata = { op, urn, type: resource.type, provider: "" };
    emit({ resourcePreEvent: { metadata, planning: dryRun || undefined } });
    if (op !== "same" && failing.has(resource.name)) {
      const message = failing.get(resource.name);
      emit({ diagnosticEvent: { urn, prefix: "error: ", message: `${message}\n`, color: "never", severity: "error" } });
      emit({ resOpFailedEvent: { metadata, status: 0, steps: 1 } });
      process.stdout.write(`    ${resource.type} ${resource.name} **${op === "create" ? "creating" : "deleting"} failed** error: ${message}\n`);
      failed.push(resource.name);
      continue;
    }
    emit({
      resOutputsEvent: {
        metadata: { ...metadata, new: { type: resource.type, urn, id: `${resource.name}-id`, parent: "", inputs: {}, outputs: {}, provider: "" } },
        planning: dryRun || undefined,
      },
    });
    changes[op] = (changes[op] ?? 0) + 1;
    if (!dryRun) {
      if (op === "delete") kept.delete(resource.name);
      else kept.set(resource.name, resource);
    }
  }
  const stackUrn = `urn:pulumi:${name}::${project().name}::pulumi:pulumi:Stack::${project().name}-${name}`;
  if (failed.length > 0)
    emit({ diagnosticEvent: { urn: stackUrn, prefix: "error: ", message: "update failed\n", color: "never", severity: "error" } });
  emit({ summaryEvent: { maybeCorrupt: false, durationSeconds: Math.round(runMs / 1000), resourceChanges: changes, policyPacks: {} } });
  emit({ cancelEvent: {} });
  await deliverEvents(flagValue("--event-log"));

  const result = cancelled ? "failed" : failed.length > 0 ? "failed" : "succeeded";
  if (!dryRun) {
    stack.resources = [...kept.values()];
    if (kind === "up" && !cancelled) stack.outputs = scenario.outputs ?? {};
    if (kind === "destroy") stack.outputs = {};
    // A run saves the state with the secrets manager it used, as the engine does.
    stack.secretsManager = manager;
    stack.history.unshift({
      version: stack.history.length + 1,
      kind: kind === "destroy" ? "destroy" : "update",
      startTime: started,
      message: flag("--message") ?? "",
      environment: { "exec.kind": flag("--exec-kind") ?? "cli" },
      config: {},
      result,
      endTime: new Date().toISOString(),
      resourceChanges: changes,
    });
    saveStack(name, stack);
  }
  const summary = Object.entries(changes).map(([op, n]) => `    ${n} ${op}`);
  process.stdout.write(`Resources:\n${summary.join("\n")}\n\nDuration: ${Math.round(runMs / 1000)}s\n`);
  if (cancelled) fail(`${dryRun ? "preview" : "update"} canceled`);
  if (failed.length > 0) fail(`${dryRun ? "preview" : "update"} failed`);
  finish(0);
}

function stackOutput() {
  const name = flag("--stack");
  const stack = loadStack(name);
  const show = args.includes("--show-secrets");
  if (show) secretsManager(name, stack);
  const out = {};
  for (const [key, { value, secret }] of Object.entries(stack.outputs)) out[key] = secret && !show ? "[secret]" : value;
  process.stdout.write(JSON.stringify(out, null, 2) + "\n");
  finish(0);
}

function stackHistory() {
  const name = flag("--stack");
  const stack = loadStack(name);
  if (args.includes("--show-secrets")) secretsManager(name, stack);
  const size = Number(flag("--page-size") ?? stack.history.length);
  process.stdout.write(JSON.stringify(stack.history.slice(0, size), null, 2) + "\n");
  finish(0);
}

function stackExport() {
  const name = flag("--stack");
  const stack = loadStack(name);
  const resources = stack.resources.map((r) => ({ urn: urnOf(name, r), type: r.type, id: `${r.name}-id`, custom: true }));
  process.stdout.write(
    JSON.stringify({ version: 3, deployment: { manifest: {}, secrets_providers: { type: stack.secretsManager.type }, resources } }, null, 2) + "\n",
  );
  finish(0);
}

async function main() {
  const [a, b] = args;
  if (a === "version") {
    process.stdout.write(`v${scenario.version ?? "3.210.0"}\n`);
    return finish(0);
  }
  if (a === "stack" && b === "select") return stackSelect();
  if (a === "stack" && b === "init") return stackInit();
  if (a === "stack" && b === "rm") return stackRm();
  if (a === "stack" && b === "output") return stackOutput();
  if (a === "stack" && b === "history") return stackHistory();
  if (a === "stack" && b === "export") return stackExport();
  if (a === "config" && b === "set-all") return configSetAll();
  if (a === "config" && b === "set") return configSet();
  if (a === "up") return engineRun("up");
  if (a === "preview") return engineRun("preview");
  if (a === "destroy") return engineRun("destroy");
  fail(`the stand-in CLI does not know \`pulumi ${args.join(" ")}\``, 1);
}

main().catch((err) => fail(String(err && err.stack ? err.stack : err)));
