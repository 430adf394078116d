import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StackState, type ResourceState } from "../../engine";

/** The engine driver's state file: its owner's only, and, once kept, its secrets encrypted. */
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "state-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const KEY = "hmac-canary-7d2c91";
const task: ResourceState = {
  urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/runtask:RunTask::scanner",
  type: "pulumi-nodejs:dynamic/runtask:RunTask",
  name: "scanner",
  id: "task-1",
  inputs: { url: "https://hooks.example.com", hmacKey: KEY },
  outputs: { url: "https://hooks.example.com", hmacKey: KEY, taskId: "task-1" },
  secretInputs: [],
  secretOutputs: ["hmacKey"],
  additionalSecretOutputs: ["hmacKey"],
};

function saved(passphrase?: string): { file: string; text: string } {
  const file = join(dir, "state.json");
  const state = new StackState(file);
  state.put(task);
  state.save(passphrase);
  return { file, text: readFileSync(file, "utf8") };
}

test("every save is readable by its owner only", () => {
  const { file } = saved();
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

test("kept with a passphrase, secret values are encrypted (inputs too), and read back with it", () => {
  const { file, text } = saved("a passphrase");
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(text).not.toContain(KEY);
  expect(text).toContain('"ciphertext": "v1:');
  expect(JSON.parse(text).secretsProvider).toMatchObject({ type: "passphrase", salt: expect.any(String) });
  expect(StackState.load(file, "a passphrase").get("scanner")).toEqual(task);
  expect(() => StackState.load(file)).toThrow("its secrets are encrypted; give the passphrase it was kept with");
  expect(() => StackState.load(file, "another")).toThrow("the state's secrets do not decrypt with this passphrase");
});
