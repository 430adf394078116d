import { localConfig, NO_ENTRY, SnapshotApi } from "../support/snapshotApi";

let api: SnapshotApi;
afterEach(() => api.close());

const s3Config = (extra: Record<string, unknown> = {}) => ({
  interval: 3600,
  path_prefix: "backups",
  storage_type: "cloudA-s3",
  cloudA_s3_bucket: "b",
  cloudA_s3_region: "eu-west-1",
  ...extra,
});

describe("snapshot emulator: the 404 of a name it does not hold (notFoundBody)", () => {
  test.each<[string, number, unknown]>([
    ["errors", 404, NO_ENTRY],
    ["empty", 404, undefined],
    ["emptyObject", 404, {}],
    ["nullErrors", 404, { errors: null }],
    ["blankError", 404, { errors: [""] }],
  ])("%s: read, status, delete and an empty list answer %d with %j", async (notFoundBody, status, body) => {
    api = await SnapshotApi.start({ notFoundBody: notFoundBody as never });
    for (const [method, path] of [
      ["GET", "/config/none"],
      ["GET", "/status/none"],
      ["DELETE", "/config/none"],
      ["LIST", "/config"],
    ]) {
      expect(await api.call(method, path)).toEqual({ status, body });
    }
  });

  test("a refused value is named", async () => {
    await expect(SnapshotApi.start({ notFoundBody: "html" as never })).rejects.toThrow(/notFoundBody must be one of "errors"/);
    api = await SnapshotApi.start();
  });
});

describe("snapshot emulator: POST replaces by default, merges under postMerges", () => {
  test("by default an update keeps nothing the body leaves out, and a storage type switch leaves no key of the old type", async () => {
    api = await SnapshotApi.start();
    await api.write("c", s3Config({ cloudA_s3_endpoint: "http://minio:9000", cloudA_access_key_id: "AKIAOLD0" }));
    await api.write("c", s3Config());
    expect(api.emulator.snapshot.configs.get("c")!.config).not.toHaveProperty("cloudA_s3_endpoint");
    await api.write("c", localConfig());
    expect(Object.keys(api.emulator.snapshot.configs.get("c")!.config).filter((k) => k.startsWith("cloudA"))).toEqual([]);
  });

  test("postMerges: keys the body leaves out are kept, those of another storage type too; a value sent replaces the stored one", async () => {
    api = await SnapshotApi.start({ postMerges: true });
    await api.write("c", s3Config({ retain: 4, cloudA_s3_endpoint: "http://minio:9000", cloudA_access_key_id: "AKIAOLD0" }));
    await api.write("c", s3Config({ cloudA_s3_region: "us-east-1" }));
    expect(api.emulator.snapshot.configs.get("c")!.config).toMatchObject({
      retain: 4,
      cloudA_s3_region: "us-east-1",
      cloudA_s3_endpoint: "http://minio:9000",
      cloudA_access_key_id: "AKIAOLD0",
    });
    await api.write("c", s3Config({ cloudA_s3_endpoint: "" }));
    expect(api.emulator.snapshot.configs.get("c")!.config.cloudA_s3_endpoint).toBe("");
    await api.write("c", localConfig());
    const held = api.emulator.snapshot.configs.get("c")!.config;
    expect(held).toMatchObject({ storage_type: "local", local_max_space: 1_000_000, cloudA_access_key_id: "AKIAOLD0", cloudA_s3_bucket: "b" });
    // A read carries what the service holds, the old type's keys with it.
    expect((await api.call("GET", "/config/c")).body.data).toMatchObject({ storage_type: "local", cloudA_access_key_id: "AKIAOLD0" });
  });

  test("postMerges: the merged configuration is checked for the selected storage type (a required field may come from what is held)", async () => {
    api = await SnapshotApi.start({ postMerges: true });
    await api.write("c", s3Config());
    expect((await api.call("POST", "/config/c", { interval: 60, path_prefix: "p", storage_type: "cloudA-s3" })).status).toBe(204);
    expect((await api.call("POST", "/config/c", { storage_type: "local" })).status).toBe(400);
  });

  test("postMerges with echoCredentials false: no credential is read back, of any storage type", async () => {
    api = await SnapshotApi.start({ postMerges: true, echoCredentials: false });
    await api.write("c", s3Config({ cloudA_secret_access_key: "s3cr3t-value" }));
    await api.write("c", localConfig());
    expect((await api.call("GET", "/config/c")).body.data).not.toHaveProperty("cloudA_secret_access_key");
  });
});
