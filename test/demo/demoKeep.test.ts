import { readFileSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { StackState } from "../../engine";
import { pathWithoutPulumi, REPO, run, type CommandResult } from "../support/demoCommand";

/** `npm run demo -- --keep` without a CLI: the driver's state is kept readable by its owner only, its secrets encrypted. */
let result: CommandResult;
let stateFile: string;
let passphrase: string;

beforeAll(async () => {
  result = await run(process.execPath, ["dist/demo/main.js", "--keep"], { ...process.env, PATH: pathWithoutPulumi });
  if (result.code !== 0) console.error(result.stdout, result.stderr);
  [, stateFile, passphrase] = /^ {2}(\S+driver-state\.json): [\s\S]*?encrypted with the passphrase (\S+),/m.exec(result.stdout) ?? [];
}, 180_000);

afterAll(() => {
  if (stateFile) rmSync(dirname(stateFile), { recursive: true, force: true });
});

test("says where the state is, that only its owner can read it, and the passphrase of its secrets", () => {
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("Kept (--keep): the stack, its state and its resources.");
  expect(stateFile.startsWith(`${REPO}/.pulumi-demo/`)).toBe(true);
  expect(passphrase).toBeTruthy();
});

test("the file is its owner's only, and holds the HMAC key encrypted, never in plain text", () => {
  expect(statSync(stateFile).mode & 0o777).toBe(0o600);
  const task = StackState.load(stateFile, passphrase).resources.find((r) => r.type.endsWith(":RunTask"))!;
  const key = task.outputs.hmacKey as string;
  expect(key.length).toBeGreaterThan(20);
  expect(readFileSync(stateFile, "utf8")).not.toContain(key);
});
