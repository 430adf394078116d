import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { providers } from "../../provider";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { configureProvider } from "../support/providerConfig";

/** A service that echoes the whole request, headers included, in its error: the worst case for a client. */
let emulator: Emulator;
const printed: string[] = [];
const CANARIES = { secretAccessKey: "canary-sak-3f8e", sessionToken: 'canary "session" token\n91', hmacKey: "canary-hmac-44de" };

beforeAll(async () => {
  emulator = await startEmulator({
    interceptors: [
      (req) =>
        req.method === "POST" || req.method === "PATCH"
          ? { status: req.path.startsWith("/v1/") ? 400 : 422, body: { errors: [`rejected ${req.rawBody} with headers ${JSON.stringify(req.headers)}`] } }
          : undefined,
    ],
  });
  configureProvider({
    "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    "runtask:address": emulator.url, "runtask:token": DEFAULT_RUNTASK_TOKEN, "runtask:organization": "emulator-org",
  });
  for (const stream of ["log", "warn", "error", "info"] as const) {
    jest.spyOn(console, stream).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")));
  }
});

afterAll(async () => {
  jest.restoreAllMocks();
  await emulator.close();
  await closeSharedDispatchers();
});

const leaks = (text: string) =>
  [DEFAULT_SNAPSHOT_TOKEN, DEFAULT_RUNTASK_TOKEN, ...Object.values(CANARIES), JSON.stringify(CANARIES.sessionToken).slice(1, -1)].filter((c) => text.includes(c));

describe("errors never carry a secret, even when the server echoes the request", () => {
  test("snapshot service: token and credentials redacted", async () => {
    const inputs = (await providers.snapshotAutoConfig.check({}, {
      name: "s3", interval: 60, pathPrefix: "p", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r",
      cloudASecretAccessKey: CANARIES.secretAccessKey, cloudASessionToken: CANARIES.sessionToken,
    })).inputs!;
    const err = (await providers.snapshotAutoConfig.create(inputs).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(/^snapshot service: POST \/sys\/storage\/raft\/snapshot-auto\/config\/s3 failed \(HTTP 400\): rejected /);
    expect(err.message).toContain("[redacted]");
    expect(leaks(err.message + (err.stack ?? ""))).toEqual([]);
  });

  test("run task service: token and HMAC key redacted", async () => {
    const inputs = (await providers.runTask.check({}, { name: "t", url: "https://h.example", hmacKey: CANARIES.hmacKey })).inputs!;
    const err = (await providers.runTask.create(inputs).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(/^run task service: POST \/organizations\/emulator-org\/tasks failed \(HTTP 422\): rejected /);
    expect(leaks(err.message + (err.stack ?? ""))).toEqual([]);
  });

  test("nothing printed carries a secret", () => {
    expect(leaks(printed.join("\n"))).toEqual([]);
  });
});
