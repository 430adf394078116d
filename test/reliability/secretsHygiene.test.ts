import { inspect } from "node:util";
import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { providers } from "../../provider";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { configureProvider } from "../support/providerConfig";

/**
 * A service that echoes the whole request, headers included, in its errors: the worst case for a client.
 * Canaries planted in every secret (tokens, credentials, the HMAC key, the members of a service account key)
 * must not appear in anything the provider reports: error messages, stacks, inspected errors, console output,
 * anything written to stdout or stderr.
 */
let emulator: Emulator;
const printed: string[] = [];
/** What reached the service: bodies and headers. */
const seen: string[] = [];
const PRIVATE_KEY = "-----BEGIN PRIVATE KEY-----\ncanary-private-key-body-77\n-----END PRIVATE KEY-----\n";
const CANARIES = {
  snapshotToken: "canary-snapshot-token-1c",
  runTaskToken: "canary-runtask-token-2d",
  accessKeyId: "canary-akid-5a",
  secretAccessKey: "canary-sak-3f8e",
  sessionToken: 'canary "session" token\n91',
  hmacKey: "canary-hmac-44de",
  privateKey: PRIVATE_KEY,
  privateKeyId: "canary-pkid-0b9e",
  accountKey: "canary-blob-account-key-6c",
};
const SERVICE_ACCOUNT_KEY = JSON.stringify({
  type: "service_account",
  project_id: "p",
  private_key_id: CANARIES.privateKeyId,
  private_key: PRIVATE_KEY,
  client_email: "x@p.example",
});

/** A key of several lines, as PEM keys are: a service may quote one line of it. */
const PEM_KEY = [
  "-----BEGIN PRIVATE KEY-----",
  "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDcanaryLineOne",
  "Q2FuYXJ5TGluZVR3b0lzU2VjcmV0VG9vQW5kTG9uZ0Vub3VnaFRvQmVDaGVja2Vk",
  "-----END PRIVATE KEY-----",
  "",
].join("\n");
/** A key with characters a URL encodes, which a service may quote as it came in a query. */
const HMAC_WITH_SYMBOLS = "canary hmac/key+77=";
const FRAGMENT_CANARIES = {
  pemLine: PEM_KEY.split("\n")[2],
  urlEncodedHmac: encodeURIComponent(HMAC_WITH_SYMBOLS),
  base64Credentials: Buffer.from(`${CANARIES.accessKeyId}:${CANARIES.secretAccessKey}`).toString("base64"),
  base64SecretInText: Buffer.from(`user=x;secret=${CANARIES.secretAccessKey};end`).toString("base64"),
};

/** What a service that quotes pieces of secrets says: a line of a PEM key, a URL-encoded key, base64 of credentials. */
function fragmentsOf(body: unknown): string {
  const json = JSON.stringify(body);
  const quoted: string[] = [];
  if (json.includes("cloudC_service_account_key")) quoted.push(`bad key line: ${FRAGMENT_CANARIES.pemLine}`);
  if (json.includes("cloudA_secret_access_key")) {
    quoted.push(`Authorization: Basic ${FRAGMENT_CANARIES.base64Credentials}`, `payload ${FRAGMENT_CANARIES.base64SecretInText}`);
  }
  if (json.includes("hmac")) quoted.push(`refused /hook?key=${FRAGMENT_CANARIES.urlEncodedHmac}`);
  return quoted.join("; ");
}

/** Echoes the request in an error: as a 400/422 for writes, as a 503 for paths under `.../flaky-*`, and quotes the key alone. */
function echo(req: { method: string; path: string; rawBody: string; headers: unknown; body: unknown }) {
  const quote = `rejected ${req.rawBody} with headers ${JSON.stringify(req.headers)}`;
  seen.push(`${req.rawBody} ${JSON.stringify(req.headers)}`);
  if (req.method !== "GET" && (req.path.includes("/fragments-") || JSON.stringify(req.body ?? "").includes("fragments-"))) {
    return { status: req.path.startsWith("/v1/") ? 400 : 422, body: { errors: [fragmentsOf(req.body)] } };
  }
  if (req.path.includes("/flaky-")) return { status: 503, body: { errors: [quote] } };
  if (req.method === "POST" && req.path.includes("/quoting-")) {
    return {
      status: 400,
      body: { errors: [`invalid private_key: ${JSON.parse(String((req.body as Record<string, string>).cloudC_service_account_key)).private_key}`] },
    };
  }
  if (req.method === "POST" || req.method === "PATCH") return { status: req.path.startsWith("/v1/") ? 400 : 422, body: { errors: [quote] } };
  return undefined;
}

beforeAll(async () => {
  emulator = await startEmulator({
    snapshot: { tokens: { [CANARIES.snapshotToken]: { sudo: true } } },
    runTask: { tokens: { [CANARIES.runTaskToken]: { owner: true, manageRunTasks: true, manageWorkspaceRunTasks: true } } },
    interceptors: [echo],
  });
  configureProvider(
    {
      "snapshot:address": emulator.url,
      "snapshot:token": CANARIES.snapshotToken,
      "runtask:address": emulator.url,
      "runtask:token": CANARIES.runTaskToken,
      "runtask:organization": "emulator-org",
    },
    { retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 } },
  );
  for (const stream of ["log", "warn", "error", "info", "debug"] as const) {
    jest.spyOn(console, stream).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    jest.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
});

afterAll(async () => {
  jest.restoreAllMocks();
  await emulator.close();
  await closeSharedDispatchers();
});

/** Every canary, and the forms a server may quote it in (JSON-escaped once or twice). */
const forms = [DEFAULT_SNAPSHOT_TOKEN, DEFAULT_RUNTASK_TOKEN, ...Object.values(CANARIES)].flatMap((c) => [
  c,
  JSON.stringify(c).slice(1, -1),
  JSON.stringify(JSON.stringify(c)).slice(1, -1),
]);
const leaks = (text: string) => [...new Set(forms.filter((c) => text.includes(c)))];
/** Everything a caller (the engine, a log) could print of an error. */
const everything = (err: Error) => [err.message, err.stack ?? "", inspect(err, { depth: 5 }), JSON.stringify(err), String(err)].join("\n");

async function failure(run: () => Promise<unknown>): Promise<Error> {
  const err = await run().then(
    () => undefined,
    (e: Error) => e,
  );
  if (!err) throw new Error("expected a failure");
  printed.push(everything(err));
  return err;
}

const snapshot = async (news: Record<string, unknown>) =>
  (await providers.snapshotAutoConfig.check({}, { interval: 60, pathPrefix: "p/", ...news })).inputs!;

describe("errors never carry a secret, even when the server echoes the request", () => {
  test("snapshot service: token and cloudA credentials", async () => {
    const inputs = await snapshot({
      name: "s3",
      storageType: "cloudA-s3",
      cloudAS3Bucket: "b",
      cloudAS3Region: "r",
      cloudAAccessKeyId: CANARIES.accessKeyId,
      cloudASecretAccessKey: CANARIES.secretAccessKey,
      cloudASessionToken: CANARIES.sessionToken,
    });
    const err = await failure(() => providers.snapshotAutoConfig.create(inputs));
    expect(err.message).toMatch(/^snapshot service: POST \/sys\/storage\/raft\/snapshot-auto\/config\/s3 failed \(HTTP 400\): rejected /);
    expect(err.message).toContain("[redacted]");
    expect(leaks(everything(err))).toEqual([]);
  });

  test("snapshot service: a service account key, whole and quoted member by member", async () => {
    const whole = await failure(async () =>
      providers.snapshotAutoConfig.create(
        await snapshot({ name: "gcs", storageType: "cloudC-gcs", cloudCGcsBucket: "b", cloudCServiceAccountKey: SERVICE_ACCOUNT_KEY }),
      ),
    );
    expect(leaks(everything(whole))).toEqual([]);
    const member = await failure(async () =>
      providers.snapshotAutoConfig.create(
        await snapshot({ name: "quoting-gcs", storageType: "cloudC-gcs", cloudCGcsBucket: "b", cloudCServiceAccountKey: SERVICE_ACCOUNT_KEY }),
      ),
    );
    expect(member.message).toBe(
      "snapshot service: POST /sys/storage/raft/snapshot-auto/config/quoting-gcs failed (HTTP 400): invalid private_key: [redacted]",
    );
  });

  test("snapshot service: a 5xx echoing the request, retried until the retries run out", async () => {
    const inputs = await snapshot({
      name: "flaky-blob",
      storageType: "cloudB-blob",
      cloudBContainerName: "c",
      cloudBAccountKey: CANARIES.accountKey,
    });
    const err = await failure(() => providers.snapshotAutoConfig.update("flaky-blob", inputs, inputs));
    expect(err.message).toMatch(
      /^snapshot service: POST \/sys\/storage\/raft\/snapshot-auto\/config\/flaky-blob failed \(HTTP 503, 3 attempts\): rejected /,
    );
    expect(leaks(everything(err))).toEqual([]);
  });

  test("run task service: token and HMAC key, on create and on update", async () => {
    const inputs = (await providers.runTask.check({}, { name: "t", url: "https://h.example", hmacKey: CANARIES.hmacKey })).inputs!;
    const created = await failure(() => providers.runTask.create(inputs));
    expect(created.message).toMatch(/^run task service: POST \/organizations\/emulator-org\/tasks failed \(HTTP 422\): rejected /);
    const task = emulator.runTask.addTask("emulator-org", { name: "t" });
    const updated = await failure(() => providers.runTask.update(task.id, { ...inputs, hmacKey: "old-key-value" }, inputs));
    expect(updated.message).toMatch(/^run task service: PATCH \/tasks\/task-\S+ failed \(HTTP 422\): rejected /);
    expect(leaks(everything(created) + everything(updated))).toEqual([]);
  });

  test("run task service: a lost create, looked up and failing again, says so without the key", async () => {
    const inputs = (await providers.runTask.check({}, { name: "flaky-t", url: "https://h.example", hmacKey: CANARIES.hmacKey })).inputs!;
    const err = await failure(() => providers.runTask.create({ ...inputs, organization: "flaky-org" }));
    expect(leaks(everything(err))).toEqual([]);
  });

  test("fragments of a secret: one line of a PEM key, a URL-encoded HMAC key, base64 of credentials", async () => {
    const gcs = await failure(async () =>
      providers.snapshotAutoConfig.create(
        await snapshot({
          name: "fragments-gcs",
          storageType: "cloudC-gcs",
          cloudCGcsBucket: "b",
          cloudCServiceAccountKey: JSON.stringify({ type: "service_account", private_key: PEM_KEY }),
        }),
      ),
    );
    expect(gcs.message).toContain("bad key line: [redacted]");
    const s3 = await failure(async () =>
      providers.snapshotAutoConfig.create(
        await snapshot({
          name: "fragments-s3",
          storageType: "cloudA-s3",
          cloudAS3Bucket: "b",
          cloudAS3Region: "r",
          cloudAAccessKeyId: CANARIES.accessKeyId,
          cloudASecretAccessKey: CANARIES.secretAccessKey,
        }),
      ),
    );
    const inputs = (await providers.runTask.check({}, { name: "fragments-t", url: "https://h.example", hmacKey: HMAC_WITH_SYMBOLS })).inputs!;
    const task = await failure(() => providers.runTask.create(inputs));
    expect(task.message).toContain("refused /hook?key=[redacted]");
    const all = [gcs, s3, task].map(everything).join("\n");
    expect(Object.entries(FRAGMENT_CANARIES).filter(([, fragment]) => all.includes(fragment))).toEqual([]);
    expect(all).not.toContain(CANARIES.secretAccessKey);
  });

  test("the canaries did reach the service (so that the checks above can fail)", () => {
    const sent = seen.join("\n");
    for (const canary of [
      CANARIES.hmacKey,
      CANARIES.runTaskToken,
      CANARIES.snapshotToken,
      CANARIES.secretAccessKey,
      CANARIES.accountKey,
      CANARIES.privateKeyId,
    ]) {
      expect(sent).toContain(canary);
    }
  });

  test("nothing printed carries a secret", () => {
    expect(printed.length).toBeGreaterThan(0);
    expect(leaks(printed.join("\n"))).toEqual([]);
  });
});
