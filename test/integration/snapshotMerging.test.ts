import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { snapshotAutoConfigProvider as provider } from "../../provider/snapshotAutoConfig/provider";
import { configureProvider } from "../support/providerConfig";
import { Switchboard } from "../support/switchboard";

/**
 * The spec does not say that POST clears the keys it leaves out. Against a service that replaces (the emulator's
 * default) and one that merges (`postMerges`), no setting the program no longer has may stay behind.
 */
type Props = Record<string, unknown>;

let emulator: Emulator;
let dir: string;
const calls = new Switchboard();

async function checked(news: Props): Promise<Props> {
  const r = await provider.check({}, news);
  expect(r.failures).toEqual([]);
  return r.inputs as Props;
}

const s3 = (extra: Props = {}): Props => ({
  name: "nightly",
  interval: "24h",
  pathPrefix: "backups",
  storageType: "cloudA-s3",
  cloudAS3Bucket: "snapshots",
  cloudAS3Region: "eu-west-1",
  ...extra,
});
const s3Extras = {
  cloudAAccessKeyId: "AKIA-old-key-0001",
  cloudASecretAccessKey: "old-secret-0001",
  cloudAS3Endpoint: "http://minio.internal:9000",
  cloudAS3DisableTls: true,
};

const held = () => emulator.snapshot.configs.get("nightly")?.config;
const writes = () => emulator.requests.entries.filter((e) => e.method !== "GET" && e.method !== "LIST").map((e) => e.method);

afterEach(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});
afterAll(() => closeSharedDispatchers());

describe.each([
  ["a service whose POST replaces (the default)", false],
  ["a service whose POST merges (postMerges)", true],
])("%s", (_, postMerges) => {
  beforeEach(async () => {
    calls.reset();
    emulator = await startEmulator({
      snapshot: { takeSnapshots: false, postMerges },
      interceptors: [calls.interceptor],
    });
    dir = await mkdtemp(join(tmpdir(), "snapshots-"));
    configureProvider({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN }, { retry: { baseDelayMs: 5, maxDelayMs: 20 } });
  });

  async function created(args: Props): Promise<Props> {
    const { outs } = await provider.create(await checked(args));
    emulator.requests.reset();
    return outs;
  }

  /** After an update, what a refresh reads, and whether the next preview would show a change. */
  async function settled(outs: Props, program: Props): Promise<{ refreshed: Props; diff: boolean }> {
    const { props } = await provider.read("nightly", outs);
    return { refreshed: props, diff: (await provider.diff("nightly", props, await checked(program))).changes };
  }

  test("switching cloudA-s3 to local deletes the configuration and writes it afresh: no cloudA key stays", async () => {
    const olds = await created(s3(s3Extras));
    const local = { name: "nightly", interval: "24h", pathPrefix: dir, storageType: "local", localMaxSpace: 1_000_000 };
    const { outs } = await provider.update("nightly", olds, await checked(local));
    expect(writes()).toEqual(["DELETE", "POST"]);
    expect(Object.keys(held()!).filter((k) => k.startsWith("cloudA"))).toEqual([]);
    expect(held()).toMatchObject({ storage_type: "local", local_max_space: 1_000_000 });
    expect((await settled(outs, local)).diff).toBe(false);
  });

  test("removing cloudAS3Endpoint is one write that clears it, and then no diff", async () => {
    const olds = await created(s3({ cloudAS3Endpoint: "http://minio.internal:9000" }));
    const { outs } = await provider.update("nightly", olds, await checked(s3()));
    expect(writes()).toEqual(["POST"]);
    expect(held()?.cloudA_s3_endpoint ?? "").toBe("");
    const { refreshed, diff } = await settled(outs, s3());
    expect(refreshed).not.toHaveProperty("cloudAS3Endpoint");
    expect(diff).toBe(false);
  });

  test("removing the credentials (to use the cloud's own authentication) and disableTls clears them on the service", async () => {
    const olds = await created(s3(s3Extras));
    const { outs } = await provider.update("nightly", olds, await checked(s3()));
    expect(writes()).toEqual(["POST"]);
    const config = held()!;
    for (const key of ["cloudA_access_key_id", "cloudA_secret_access_key", "cloudA_s3_endpoint"]) expect(config[key] ?? "").toBe("");
    expect(config.cloudA_s3_disable_tls ?? false).toBe(false);
    expect((await settled(outs, s3())).diff).toBe(false);
  });

  test("removing an enumerated setting (cloudBAuthMode), which has no value meaning unset, rewrites the configuration", async () => {
    const blob = { name: "nightly", interval: 3600, pathPrefix: "snaps/", storageType: "cloudB-blob", cloudBContainerName: "c" };
    const olds = await created({ ...blob, cloudBAuthMode: "managed", cloudBClientId: "client-1" });
    await provider.update("nightly", olds, await checked({ ...blob, cloudBClientId: "client-1" }));
    expect(writes()).toEqual(["DELETE", "POST"]);
    expect(held()).not.toHaveProperty("cloudB_auth_mode");
    expect(held()).toMatchObject({ cloudB_client_id: "client-1" });
  });

  test("a failure between the DELETE and the POST leaves a state that the next up repairs (and a refresh tells)", async () => {
    const olds = await created(s3(s3Extras));
    const local = await checked({ name: "nightly", interval: "24h", pathPrefix: dir, storageType: "local", localMaxSpace: 1_000_000 });
    calls.answers.push((req) => (req.method === "POST" ? { status: 400, body: { errors: ["storage backend is read-only"] } } : undefined));
    await expect(provider.update("nightly", olds, local)).rejects.toThrow(/HTTP 400/);
    expect(held()).toBeUndefined();
    expect(await provider.read("nightly", olds)).toEqual({ id: "", props: {} });
    // The engine keeps the old state after a failed update: the next up sends the same update, which converges.
    calls.reset();
    await provider.update("nightly", olds, local);
    expect(held()).toMatchObject({ storage_type: "local" });
    expect(Object.keys(held()!).filter((k) => k.startsWith("cloudA"))).toEqual([]);
  });

  test("adopting a configuration that holds settings the program does not set clears them", async () => {
    await provider.create(await checked(s3(s3Extras)));
    emulator.requests.reset();
    await provider.create(await checked(s3({ adopt: true })));
    expect(writes()).toEqual(["POST"]);
    expect(held()?.cloudA_s3_endpoint ?? "").toBe("");
    expect(held()?.cloudA_access_key_id ?? "").toBe("");
  });
});
