import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { PartialFailure } from "../../provider/common/partialFailure";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { snapshotAutoConfigProvider as provider } from "../../provider/snapshotAutoConfig/provider";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";
import { Switchboard } from "../support/switchboard";
import { checkedInputs } from "../support/checkedInputs";

/**
 * The spec does not say that POST clears the keys it leaves out. Against a service that replaces (the emulator's
 * default) and one that merges (`postMerges`), no setting the program no longer has may stay behind.
 */
type Props = Record<string, unknown>;

let emulator: Emulator;
let dir: string;
const calls = new Switchboard();

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
    const { outs } = await provider.create(await checkedInputs(provider, args));
    emulator.requests.reset();
    return outs;
  }

  /** After an update, what a refresh reads, and whether the next preview would show a change. */
  async function settled(outs: Props, program: Props): Promise<{ refreshed: Props; diff: boolean }> {
    const { props } = await provider.read("nightly", outs);
    return { refreshed: props, diff: (await provider.diff("nightly", props, await checkedInputs(provider, program))).changes };
  }

  test("switching cloudA-s3 to local deletes the configuration and writes it afresh: no cloudA key stays", async () => {
    const olds = await created(s3(s3Extras));
    const local = { name: "nightly", interval: "24h", pathPrefix: dir, storageType: "local", localMaxSpace: 1_000_000 };
    const { outs } = await provider.update("nightly", olds, await checkedInputs(provider, local));
    expect(writes()).toEqual(["DELETE", "POST"]);
    expect(Object.keys(held()!).filter((k) => k.startsWith("cloudA"))).toEqual([]);
    expect(held()).toMatchObject({ storage_type: "local", local_max_space: 1_000_000 });
    expect((await settled(outs, local)).diff).toBe(false);
  });

  test("removing cloudAS3Endpoint is one write that clears it, and then no diff", async () => {
    const olds = await created(s3({ cloudAS3Endpoint: "http://minio.internal:9000" }));
    const { outs } = await provider.update("nightly", olds, await checkedInputs(provider, s3()));
    expect(writes()).toEqual(["POST"]);
    expect(held()?.cloudA_s3_endpoint ?? "").toBe("");
    const { refreshed, diff } = await settled(outs, s3());
    expect(refreshed).not.toHaveProperty("cloudAS3Endpoint");
    expect(diff).toBe(false);
  });

  test("removing the credentials (to use the cloud's own authentication) and disableTls clears them on the service", async () => {
    const olds = await created(s3(s3Extras));
    const { outs } = await provider.update("nightly", olds, await checkedInputs(provider, s3()));
    expect(writes()).toEqual(["POST"]);
    const config = held()!;
    for (const key of ["cloudA_access_key_id", "cloudA_secret_access_key", "cloudA_s3_endpoint"]) expect(config[key] ?? "").toBe("");
    expect(config.cloudA_s3_disable_tls ?? false).toBe(false);
    expect((await settled(outs, s3())).diff).toBe(false);
  });

  test("removing an enumerated setting (cloudBAuthMode), which has no value meaning unset, rewrites the configuration", async () => {
    const blob = { name: "nightly", interval: 3600, pathPrefix: "snaps/", storageType: "cloudB-blob", cloudBContainerName: "c" };
    const olds = await created({ ...blob, cloudBAuthMode: "managed", cloudBClientId: "client-1" });
    await provider.update("nightly", olds, await checkedInputs(provider, { ...blob, cloudBClientId: "client-1" }));
    expect(writes()).toEqual(["DELETE", "POST"]);
    expect(held()).not.toHaveProperty("cloudB_auth_mode");
    expect(held()).toMatchObject({ cloudB_client_id: "client-1" });
  });

  const local = () => checkedInputs(provider, { name: "nightly", interval: "24h", pathPrefix: dir, storageType: "local", localMaxSpace: 1_000_000 });
  const refusing = (body: (b: Props) => boolean, status = 400) =>
    calls.answers.push((req) =>
      req.method === "POST" && body(req.body as Props) ? { status, body: { errors: ["storage backend refused it"] } } : undefined,
    );

  test("a switch whose POST the service refuses: the previous configuration is written back, and a refresh then shows no change", async () => {
    const olds = await created(s3(s3Extras));
    const before = structuredClone(held());
    refusing((b) => b.storage_type === "local");
    const err = (await failure(provider.update("nightly", olds, await local()))) as Error & { code?: string };
    expect(err).not.toBeInstanceOf(PartialFailure);
    expect(err?.code).toBe("bad_request");
    expect(err?.message).toContain("the previous configuration was written back, so the service holds what the state says");
    expect(writes()).toEqual(["DELETE", "POST", "POST"]);
    expect(held()).toEqual(before);
    expect((await settled(olds, s3(s3Extras))).diff).toBe(false);
  });

  test("a switch whose POST and write-back both fail: recorded as it was, with the failure; the next up writes it", async () => {
    const olds = await created(s3(s3Extras));
    refusing(() => true);
    const err = (await failure(provider.update("nightly", olds, await local()))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.id).toBe("nightly");
    expect(err.properties).toEqual(olds);
    expect(err.reasons[0]).toContain("writing it back failed too");
    expect(err.reasons[0]).toContain("the next `pulumi up` writes it again");
    expect(held()).toBeUndefined();
    // The engine records the properties with the failure and updates the resource at the next up, whatever its diff.
    calls.reset();
    await provider.update("nightly", err.properties, await checkedInputs(provider, s3(s3Extras)));
    expect(held()).toMatchObject({ storage_type: "cloudA-s3", cloudA_access_key_id: s3Extras.cloudAAccessKeyId });
  });

  test("a switch whose DELETE fails with a 5xx: the previous configuration is written back", async () => {
    const olds = await created(s3(s3Extras));
    const before = structuredClone(held());
    calls.answers.push((req) => (req.method === "DELETE" ? { status: 503, body: { errors: ["sealed"] } } : undefined));
    await expect(provider.update("nightly", olds, await local())).rejects.toThrow(/HTTP 503.*the previous configuration was written back/);
    expect(held()).toEqual(before);
  });

  test("an adopt whose POST the service refuses: the configuration is untouched, nothing deleted, nothing recorded", async () => {
    await created(s3(s3Extras));
    const before = structuredClone(held());
    refusing(() => true);
    const err = (await failure(provider.create(await local().then((l) => ({ ...l, adopt: true }))))) as Error;
    expect(err).toBeDefined();
    expect(err).not.toBeInstanceOf(PartialFailure);
    expect(writes()).toEqual(["POST"]);
    expect(held()).toEqual(before);
  });

  test("an adopt that switches the storage type: the program's configuration first, then written afresh; nothing of the old one stays", async () => {
    await created(s3(s3Extras));
    await provider.create({ ...(await local()), adopt: true });
    expect(writes()).toEqual(["POST", "DELETE", "POST"]);
    expect(Object.keys(held()!).filter((k) => k.startsWith("cloudA"))).toEqual([]);
    expect(held()).toMatchObject({ storage_type: "local" });
  });

  test("an adopt whose rewrite fails after its POST: the program's configuration is written back and recorded", async () => {
    await created(s3(s3Extras));
    let posts = 0;
    calls.answers.push((req) => (req.method === "POST" && ++posts === 2 ? { status: 400, body: { errors: ["busy"] } } : undefined));
    const err = (await failure(provider.create({ ...(await local()), adopt: true }))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.reasons[0]).toContain("adopted, but writing it afresh (its storage type changes from cloudA-s3 to local) failed");
    expect(err.reasons[0]).toContain("the program's configuration was written back");
    expect(err.properties).toMatchObject({ name: "nightly", storageType: "local" });
    expect(held()).toMatchObject({ storage_type: "local" });
  });

  test("an adopt that switches the storage type, whose DELETE fails: recorded so that the next up finishes the switch, and no key of the old type stays", async () => {
    await created(s3(s3Extras));
    calls.answers.push((req) => (req.method === "DELETE" ? { status: 503, body: { errors: ["sealed"] } } : undefined));
    const program = { ...(await local()), adopt: true };
    const err = (await failure(provider.create(program))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.id).toBe("nightly");
    // A service that merges still holds the old type's settings: the state names the switch as still to do, and a
    // preview shows it. One that replaces holds the program's alone, and that is recorded.
    expect(err.properties.storageType).toBe(postMerges ? "cloudA-s3" : "local");
    expect((await provider.diff("nightly", err.properties, program)).changes).toBe(postMerges);
    // The engine records the properties with the failure, and updates the resource at the next up whatever its diff.
    calls.reset();
    emulator.requests.reset();
    const { outs } = await provider.update("nightly", err.properties, program);
    expect(writes()).toEqual(postMerges ? ["DELETE", "POST"] : ["POST"]);
    expect(Object.keys(held()!).filter((k) => k.startsWith("cloudA"))).toEqual([]);
    expect(held()).toMatchObject({ storage_type: "local", local_max_space: 1_000_000 });
    expect((await settled(outs, program)).diff).toBe(false);
  });

  test("adopting a configuration that holds settings the program does not set clears them", async () => {
    await provider.create(await checkedInputs(provider, s3(s3Extras)));
    emulator.requests.reset();
    await provider.create(await checkedInputs(provider, s3({ adopt: true })));
    expect(writes()).toEqual(["POST"]);
    expect(held()?.cloudA_s3_endpoint ?? "").toBe("");
    expect(held()?.cloudA_access_key_id ?? "").toBe("");
  });
});

test.each([false, "masked"] as const)(
  "an adopt on a service that merges writes and shows no credential (echoCredentials %s) changes none: nobody could read them to copy them",
  async (echoCredentials) => {
    emulator = await startEmulator({ snapshot: { takeSnapshots: false, postMerges: true, echoCredentials } });
    dir = await mkdtemp(join(tmpdir(), "snapshots-"));
    configureProvider({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN });
    await provider.create(await checkedInputs(provider, s3({ ...s3Extras, cloudASessionToken: "old-session-0001" })));
    const before = held()!;
    // The read shows no credential's value: nothing tells the adopt what they are.
    const { props } = await provider.read("nightly", {});
    expect(props).not.toHaveProperty("cloudASecretAccessKey");
    await provider.create(await checkedInputs(provider, s3({ retain: 9, adopt: true })));
    const config = held()!;
    expect(config.retain).toBe(9);
    for (const key of ["cloudA_access_key_id", "cloudA_secret_access_key", "cloudA_session_token"]) expect(config[key]).toBe(before[key]);
    expect(config.cloudA_session_token).toBe("old-session-0001");
  },
);

describe("a POST carried out whose answer is lost (the connection dropped after the change was made, every try)", () => {
  beforeEach(async () => {
    emulator = await startEmulator({
      snapshot: { takeSnapshots: false },
      faults: { rules: [{ route: "POST /v1/sys/storage/raft/snapshot-auto/config/:name", rates: { dropAfterCommit: 1 } }] },
    });
    dir = await mkdtemp(join(tmpdir(), "snapshots-"));
    configureProvider(
      { "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN, "snapshot:maxRetries": "1" },
      { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
    );
  });

  test("a create: the configuration it made is recorded (a partial failure), so that the next up is not refused", async () => {
    const err = (await failure(provider.create(await checkedInputs(provider, s3())))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.code).toBe("network");
    expect(err).toMatchObject({ id: "nightly", properties: { name: "nightly", storageType: "cloudA-s3", interval: 86400 } });
    expect(err.reasons[0]).toContain("the service holds the configuration as written, though the call failed; it is recorded");
    expect(held()).toMatchObject({ storage_type: "cloudA-s3" });
  });

  test("an update: the new configuration is recorded, so that the state claims what the service holds", async () => {
    emulator.snapshot.configs.set("nightly", {
      config: {
        interval: 3600,
        retain: 1,
        path_prefix: "backups",
        file_prefix: "service-snapshot",
        storage_type: "cloudA-s3",
        cloudA_s3_bucket: "snapshots",
        cloudA_s3_region: "eu-west-1",
      },
      status: {} as never,
    });
    const olds = await checkedInputs(provider, s3({ interval: 3600 }));
    const err = (await failure(provider.update("nightly", olds, await checkedInputs(provider, s3())))) as PartialFailure;
    expect(err).toBeInstanceOf(PartialFailure);
    expect(err.properties).toMatchObject({ interval: 86400 });
    expect(held()?.interval).toBe(86400);
  });
});
