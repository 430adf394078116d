import { startEmulator, type Emulator } from "../../emulator";
import { createConsumerProject, type ConsumerProject } from "../../toolchain/consumerProject";
import { secret } from "../support/plugin/pluginClient";
import { startNativeProviderPlugin, type NativeProviderPlugin } from "../support/plugin/pluginProcess";
import { Switchboard } from "../support/switchboard";

/**
 * A value the program marks secret (`pulumi.secret(url)`: a webhook URL with a token in it) is secret whatever the
 * schema says: through the provider plugin, it appears nowhere, neither in the adopt notice, nor in a Check
 * failure, nor in an error, nor in anything the plugin prints.
 */
const SECRET_URL = "https://hooks.example.com/scan?token=canary-url-token-5d2f";
const SECRET_URL_BAD = "ftp://hooks.example.com/scan?token=canary-url-token-0b7e";
/** What the task held before the adopt: the program marks the url secret, and its old value is no less one. */
const OLD_URL = "https://hooks.example.com/old?token=canary-old-url-token-91c3";
const TASK = "urn:pulumi:dev::program-secrets::runtask:index:RunTask::scanner";

let project: ConsumerProject;
let emulator: Emulator;
let plugin: NativeProviderPlugin;
const calls = new Switchboard();
const answered: string[] = [];
/** Bodies the service was sent, as the switchboard saw them. */
const sent: string[] = [];

beforeAll(async () => {
  project = createConsumerProject({ name: "program-secrets" });
  emulator = await startEmulator({ snapshot: { takeSnapshots: false }, interceptors: [calls.interceptor] });
  plugin = await startNativeProviderPlugin(project.dir, "runtask");
  await plugin.client.configure({ address: emulator.url, token: secret("emulator-runtask-token"), organization: "emulator-org", maxRetries: "0" });
});
afterAll(async () => {
  await plugin?.stop();
  await emulator?.close();
  project?.remove();
});

const check = async (news: Record<string, unknown>) => {
  const result = await plugin.client.check(TASK, {}, news);
  answered.push(...result.failures.map((f) => f.reason));
  return result;
};

test("a task being adopted with a secret url: the notice names the change, never a value, old or new", async () => {
  emulator.runTask.addTask("emulator-org", { name: "scanner", url: OLD_URL });
  const { failures, inputs } = await check({ name: "scanner", url: secret(SECRET_URL), adopt: true });
  expect(failures).toEqual([]);
  expect(inputs.url).toEqual(secret(SECRET_URL));
  // The notice goes to the plugin's standard error, which the engine shows.
  await new Promise((r) => setTimeout(r, 100));
  expect(plugin.process.output).toContain('RunTask "scanner": adopt takes over');
  expect(plugin.process.output).toContain("url (secret)");
  expect(plugin.process.output).not.toContain("hooks.example.com/old");
});

test("a Check that fails on a secret url: the reason says what is wrong, never the value", async () => {
  const { failures } = await check({ name: "scanner", url: secret(SECRET_URL_BAD), adopt: true });
  expect(failures).toEqual([{ property: "url", reason: 'must be an http or https URL, got "[redacted]"' }]);
});

test("an error that quotes the url: redacted", async () => {
  calls.answers = [
    (req) => {
      if (req.method !== "PATCH") return undefined;
      sent.push(req.rawBody);
      return { status: 422, body: { errors: [{ status: "422", title: "invalid", detail: `cannot reach ${SECRET_URL}` }] } };
    },
  ];
  const { inputs } = await check({ name: "scanner", url: secret(SECRET_URL), adopt: true });
  const err = await plugin.client.create(TASK, inputs).catch((e: Error) => e);
  expect(err).toBeInstanceOf(Error);
  answered.push((err as Error).message);
  expect((err as Error).message).toContain("cannot reach [redacted]");
  calls.reset();
});

test("the url appears in nothing the plugin printed or answered", () => {
  const everything = [plugin.process.output, ...answered].join("\n");
  for (const value of [SECRET_URL, SECRET_URL_BAD, OLD_URL, "canary-url-token", "canary-old-url-token"]) expect(everything).not.toContain(value);
  // It did reach the service, as the program wants.
  expect(sent.some((body) => body.includes(SECRET_URL))).toBe(true);
});
