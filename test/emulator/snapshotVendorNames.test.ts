import { DEFAULT_SNAPSHOT_TOKEN, type SnapshotEmulatorOptions } from "../../emulator";
import { localConfig, SnapshotApi, type SnapshotAnswer } from "../support/snapshotApi";

let api: SnapshotApi;
afterEach(() => api.close());

const start = (options: SnapshotEmulatorOptions = {}) => SnapshotApi.start({ vendorNames: true, ...options }).then((a) => (api = a));

/** A call in the vendor's names: its token header (the spec's `X-Service-Token` left out), and its namespace header. */
const vendorCall = (method: string, path: string, body?: unknown, namespace?: string): Promise<SnapshotAnswer> =>
  api.call(method, path, body, {
    token: null,
    headers: { "x-vault-token": DEFAULT_SNAPSHOT_TOKEN, ...(namespace === undefined ? {} : { "x-vault-namespace": namespace }) },
  });

const vendorS3 = {
  interval: "24h",
  path_prefix: "raft/",
  storage_type: "aws-s3",
  aws_s3_bucket: "snapshots",
  aws_s3_region: "eu-west-1",
  aws_access_key_id: "AKIAVENDOR0",
  aws_secret_access_key: "vendor-secret",
  aws_s3_force_path_style: true,
};

describe("snapshot emulator: the vendor's names (vendorNames)", () => {
  test("off by default: the vendor's token header is no token, and its storage types are unknown", async () => {
    api = await SnapshotApi.start();
    expect(await vendorCall("PUT", "/config/offsite", vendorS3)).toEqual({ status: 403, body: { errors: ["permission denied"] } });
    const spec = await api.call("POST", "/config/offsite", vendorS3);
    expect(spec.status).toBe(400);
    expect(spec.body.errors[0]).toBe("storage_type must be one of local, cloudA-s3, cloudC-gcs, cloudB-blob");
  });

  test("written in the vendor's names, stored in the spec's, read in the names of the reader", async () => {
    await start();
    expect(await vendorCall("PUT", "/config/offsite", vendorS3)).toEqual({ status: 204, body: undefined });
    expect(api.emulator.snapshot.configs.get("offsite")!.config).toEqual({
      interval: 86400,
      retain: 1,
      path_prefix: "raft/",
      file_prefix: "vault-snapshot",
      storage_type: "cloudA-s3",
      cloudA_s3_bucket: "snapshots",
      cloudA_s3_region: "eu-west-1",
      cloudA_access_key_id: "AKIAVENDOR0",
      cloudA_secret_access_key: "vendor-secret",
      cloudA_s3_force_path_style: true,
    });
    expect((await vendorCall("GET", "/config/offsite")).body.data).toEqual({
      ...vendorS3,
      interval: 86400,
      retain: 1,
      file_prefix: "vault-snapshot",
    });
    expect((await api.call("GET", "/config/offsite")).body.data).toMatchObject({ storage_type: "cloudA-s3", cloudA_s3_bucket: "snapshots" });
  });

  test("written in the spec's names, read in the vendor's; every storage type", async () => {
    await start();
    await api.write("local", localConfig());
    await api.write("blob", {
      interval: 60,
      path_prefix: "p/",
      storage_type: "cloudB-blob",
      cloudB_container_name: "c",
      cloudB_auth_mode: "managed",
    });
    await api.write("gcs", { interval: 60, path_prefix: "p/", storage_type: "cloudC-gcs", cloudC_gcs_bucket: "g", cloudC_service_account_key: "{}" });
    expect((await vendorCall("GET", "/config/local")).body.data).toEqual({ ...localConfig(), retain: 1, file_prefix: "service-snapshot" });
    expect((await vendorCall("GET", "/config/blob")).body.data).toMatchObject({
      storage_type: "azure-blob",
      azure_container_name: "c",
      azure_auth_mode: "managed",
    });
    expect((await vendorCall("GET", "/config/gcs")).body.data).toMatchObject({
      storage_type: "google-gcs",
      google_gcs_bucket: "g",
      google_service_account_key: "{}",
    });
    expect(await vendorCall("GET", "/config?list=true")).toEqual({ status: 200, body: { data: { keys: ["blob", "gcs", "local"] } } });
  });

  test("the service's messages name the vendor's fields; a field in the spec's names is unknown to the vendor's", async () => {
    await start();
    const { aws_s3_bucket: _bucket, ...noBucket } = vendorS3;
    expect(await vendorCall("PUT", "/config/x", noBucket)).toEqual({
      status: 400,
      body: { errors: ["aws_s3_bucket is required for storage_type=aws-s3"] },
    });
    expect(await vendorCall("PUT", "/config/x", { ...vendorS3, cloudA_s3_endpoint: "http://minio" })).toEqual({
      status: 400,
      body: { errors: ["unknown field cloudA_s3_endpoint for storage_type=aws-s3"] },
    });
    expect(await vendorCall("PUT", "/config/x", { ...vendorS3, aws_s3_enable_kms: true, aws_s3_server_side_encryption: true })).toEqual({
      status: 400,
      body: { errors: ["aws_s3_enable_kms cannot be combined with aws_s3_server_side_encryption"] },
    });
    expect((await vendorCall("PUT", "/config/x", { ...vendorS3, storage_type: "cloudA-s3" })).body.errors[0]).toBe(
      "storage_type must be one of local, aws-s3, google-gcs, azure-blob",
    );
    expect(
      (await vendorCall("PUT", "/config/x", { interval: 60, path_prefix: "p", storage_type: "azure-blob", azure_container_name: "c" })).body,
    ).toEqual({ errors: ['path_prefix must end with "/" for storage_type=azure-blob'] });
    expect(api.emulator.snapshot.configs.size).toBe(0);
  });

  test("the vendor's namespace header: outside the root namespace nothing exists", async () => {
    await start();
    expect(await vendorCall("PUT", "/config/x", vendorS3, "team-a/")).toEqual({
      status: 404,
      body: { errors: ['1 error occurred:\n\t* unsupported path (restricted to the root namespace; namespace "team-a/")'] },
    });
    expect((await vendorCall("PUT", "/config/x", vendorS3, "root")).status).toBe(204);
  });

  test("credentials hidden or masked as the option says, in the vendor's names too", async () => {
    await start({ echoCredentials: "masked" });
    await vendorCall("PUT", "/config/offsite", vendorS3);
    expect((await vendorCall("GET", "/config/offsite")).body.data).toMatchObject({ aws_access_key_id: "****", aws_secret_access_key: "****" });
    await api.close();
    await start({ echoCredentials: false });
    await vendorCall("PUT", "/config/offsite", vendorS3);
    expect(Object.keys((await vendorCall("GET", "/config/offsite")).body.data).filter((k) => k.startsWith("aws_"))).toEqual([
      "aws_s3_bucket",
      "aws_s3_region",
      "aws_s3_force_path_style",
    ]);
  });

  test("postMerges keeps what the vendor's write leaves out, as stored", async () => {
    await start({ postMerges: true });
    await vendorCall("PUT", "/config/offsite", vendorS3);
    await vendorCall("PUT", "/config/offsite", { ...vendorS3, aws_access_key_id: undefined, aws_s3_region: "us-east-1", retain: 3 });
    expect(api.emulator.snapshot.configs.get("offsite")!.config).toMatchObject({
      retain: 3,
      cloudA_s3_region: "us-east-1",
      cloudA_access_key_id: "AKIAVENDOR0",
    });
  });
});
