import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { getSnapshotStatus, listSnapshotAutoConfigs } from "../../provider/functions/snapshot";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { snapshotAutoConfigProvider as provider } from "../../provider/snapshotAutoConfig/provider";
import { configureProvider } from "../support/providerConfig";

/**
 * The rule for a snapshot 404, by the answer's shape and never by its wording: an empty `errors` list is "no such
 * configuration"; any message, whatever it says, is a path the service does not serve here, and an error.
 */
let emulator: Emulator;
let answer: { status: number; body: unknown } | undefined;

beforeAll(async () => {
  // The service's own handlers, or the answer a test sets (the emulator speaks the LIST method, which Node's server does not).
  emulator = await startEmulator({ snapshot: { takeSnapshots: false }, interceptors: [() => answer] });
  configureProvider({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN });
});
afterEach(() => (answer = undefined));
afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});

const config = (key: string) => ({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN })[key];
const calls = () => [() => provider.read("daily", { name: "daily" }), () => provider.delete("daily", {}), () => listSnapshotAutoConfigs(config)];

describe("a 404 with an empty error list means no such configuration", () => {
  beforeEach(() => (answer = { status: 404, body: { errors: [] } }));

  test("refresh drops the resource, delete succeeds, the list is empty", async () => {
    const [read, remove, list] = calls();
    await expect(read()).resolves.toEqual({ id: "", props: {} });
    await expect(remove()).resolves.toBeUndefined();
    await expect(list()).resolves.toEqual([]);
  });
});

describe.each([
  'no handler for route "sys/storage/raft/snapshot-auto/config/daily"',
  "1 error occurred:\n\t* unsupported path\n\n",
  "nicht gefunden",
])("a 404 with a message (%j) is an error, never a deletion", (message) => {
  beforeEach(() => (answer = { status: 404, body: { errors: [message] } }));

  test("refresh, delete and the list fail with the message and the advice", async () => {
    for (const call of calls()) {
      await expect(call()).rejects.toMatchObject({
        code: "not_found",
        message: expect.stringContaining("they need an enterprise license, and calls from the root namespace"),
      });
    }
  });
});

describe.each<[string, unknown, string]>([
  ["no body", undefined, "no body"],
  ["{}", {}, "{}"],
  ["errors: null", { errors: null }, '{"errors":null}'],
  ['errors: [""]', { errors: [""] }, '{"errors":[""]}'],
  ["an HTML page", "<html><body>404 Not Found</body></html>", "<html>"],
  ["errors that is not a list", { errors: "none" }, '{"errors":"none"}'],
])("a bare 404 (%s) is an error that says what answered, never a deletion", (_, body, shown) => {
  beforeEach(() => (answer = { status: 404, body }));

  test("refresh, delete and the list fail, naming the answer and snapshot:address", async () => {
    for (const call of calls()) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e as Error & { code?: string },
      );
      expect(err?.code).toBe("not_found");
      expect(err?.message).toContain(shown);
      expect(err?.message).toContain("snapshot:address / SERVICE_ADDR");
      expect(err?.message).toContain('not the service\'s {"errors": []} for a missing configuration');
    }
  });
});

describe.each<[string, number, unknown, string]>([
  ["a 204", 204, undefined, "no body"],
  ["a proxy's sign-in page", 200, "<html><body>Sign in</body></html>", "a page of HTML or XML"],
  ["{}", 200, {}, "an empty JSON object"],
  ['{"data": null}', 200, { data: null }, 'a JSON object with the key "data" whose "data" is null'],
  ['{"data": {}}', 200, { data: {} }, 'a JSON object with the key "data" whose "data" has no keys'],
])("a 2xx read that is not the spec's shape (%s) is an error naming the address, never gone, never a value", (_, status, body, shown) => {
  beforeEach(() => (answer = { status, body }));

  test("refresh, a create's look for the name, the list and the status fail with code unexpected_answer, naming snapshot:address", async () => {
    const reads = [
      () => provider.read("daily", { name: "daily", storageType: "local" }),
      () => provider.create({ name: "daily", interval: 60, pathPrefix: "/p", storageType: "local", localMaxSpace: 1 }),
      () => listSnapshotAutoConfigs(config),
      // A status is any object of strings: `{"data": {}}` is one.
      ...(JSON.stringify(body) === '{"data":{}}' ? [] : [() => getSnapshotStatus({ name: "daily" }, config)]),
    ];
    for (const call of reads) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e as Error & { code?: string },
      );
      expect(err?.code).toBe("unexpected_answer");
      expect(err?.message).toContain(`HTTP ${status}`);
      expect(err?.message).toContain(`but ${shown}: check snapshot:address`);
    }
  });
});

test("a 404 that quotes the token or the call's credentials is redacted like any other error", async () => {
  const secret = "AKIA-canary-0a1b2c3d";
  answer = { status: 404, body: { echo: `token=${DEFAULT_SNAPSHOT_TOKEN} key=${secret}` } };
  const err = await provider.read("daily", { name: "daily", storageType: "cloudA-s3", cloudAAccessKeyId: secret }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err?.message).toContain("[redacted]");
  expect(err?.message).not.toContain(secret);
  expect(err?.message).not.toContain(DEFAULT_SNAPSHOT_TOKEN);
});

test("an unlicensed emulator: listSnapshotAutoConfigs raises the unsupported path instead of answering []", async () => {
  const unlicensed = await startEmulator({ snapshot: { licensed: false } });
  try {
    const lookup = (key: string) => ({ "snapshot:address": unlicensed.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN })[key];
    await expect(listSnapshotAutoConfigs(lookup)).rejects.toThrow(
      /LIST \/sys\/storage\/raft\/snapshot-auto\/config failed \(HTTP 404\): [\s\S]*unsupported path/,
    );
  } finally {
    await unlicensed.close();
  }
});
