import { localConfig, SnapshotApi } from "../support/snapshotApi";

let api: SnapshotApi;
beforeEach(async () => {
  api = await SnapshotApi.start();
});
afterEach(() => api.close());

const s3 = (extra: Record<string, unknown> = {}) => ({
  interval: 60,
  path_prefix: "p",
  storage_type: "cloudA-s3",
  cloudA_s3_bucket: "b",
  cloudA_s3_region: "r",
  ...extra,
});
const gcs = (extra: Record<string, unknown> = {}) => ({
  interval: 60,
  path_prefix: "p/",
  storage_type: "cloudC-gcs",
  cloudC_gcs_bucket: "b",
  ...extra,
});
const blob = (extra: Record<string, unknown> = {}) => ({
  interval: 60,
  path_prefix: "p/",
  storage_type: "cloudB-blob",
  cloudB_container_name: "c",
  ...extra,
});
const without = (body: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));

describe("snapshot emulator: 400 for bodies the spec does not allow", () => {
  test.each<[string, unknown, string[]]>([
    ["a body that is no object", [1, 2], ["request body must be a JSON object"]],
    [
      "no storage_type",
      without(localConfig(), "storage_type"),
      ["storage_type is required", "unknown field local_max_space for storage_type=undefined"],
    ],
    [
      "an unknown storage_type",
      localConfig({ storage_type: "tape" }),
      ["storage_type must be one of local, cloudA-s3, cloudC-gcs, cloudB-blob", "unknown field local_max_space for storage_type=tape"],
    ],
    ["no interval", without(localConfig(), "interval"), ["interval is required"]],
    ["an interval of 0", localConfig({ interval: 0 }), ["invalid interval 0"]],
    ["a negative interval", localConfig({ interval: -60 }), ["invalid interval -60"]],
    ["a fractional number of seconds", localConfig({ interval: 1.5 }), ["invalid interval 1.5"]],
    ["an interval in days", localConfig({ interval: "1d" }), ['invalid interval "1d"']],
    ["an interval below a second", localConfig({ interval: "500ms" }), ['invalid interval "500ms"']],
    ["an interval past 64-bit nanoseconds", localConfig({ interval: 9_223_372_037 }), ["invalid interval 9223372037"]],
    ["a duration past 64-bit nanoseconds", localConfig({ interval: "2562048h" }), ['invalid interval "2562048h"']],
    ["a negative duration", localConfig({ interval: "-24h" }), ['invalid interval "-24h"']],
    ["a part with neither digits nor a point's digits", localConfig({ interval: ".h" }), ['invalid interval ".h"']],
    ["a duration whose last number has no unit", localConfig({ interval: "1h30" }), ['invalid interval "1h30"']],
    ["a sign alone", localConfig({ interval: "+" }), ['invalid interval "+"']],
    ["no path_prefix", without(localConfig(), "path_prefix"), ["path_prefix is required"]],
    ["an empty path_prefix", localConfig({ path_prefix: "" }), ["path_prefix is required"]],
    ["retain 0", localConfig({ retain: 0 }), ["retain must be a positive integer"]],
    ["a fractional retain", localConfig({ retain: 1.5 }), ["retain must be a positive integer"]],
    ["an empty file_prefix", localConfig({ file_prefix: "" }), ["file_prefix must be a non-empty string"]],
    ["no local_max_space", without(localConfig(), "local_max_space"), ["local_max_space is required for storage_type=local"]],
    ["local_max_space 0", localConfig({ local_max_space: 0 }), ["local_max_space must be greater than 0"]],
    ["a field of another storage type", localConfig({ cloudA_s3_bucket: "b" }), ["unknown field cloudA_s3_bucket for storage_type=local"]],
    ["an unknown field", localConfig({ compress: true }), ["unknown field compress for storage_type=local"]],
    ["no bucket for cloudA-s3", without(s3(), "cloudA_s3_bucket"), ["cloudA_s3_bucket is required for storage_type=cloudA-s3"]],
    ["no region for cloudA-s3", without(s3(), "cloudA_s3_region"), ["cloudA_s3_region is required for storage_type=cloudA-s3"]],
    [
      "KMS and AES256 together",
      s3({ cloudA_s3_enable_kms: true, cloudA_s3_server_side_encryption: true }),
      ["cloudA_s3_enable_kms cannot be combined with cloudA_s3_server_side_encryption"],
    ],
    ["a string where a boolean goes", s3({ cloudA_s3_disable_tls: "yes" }), ["cloudA_s3_disable_tls must be a boolean"]],
    ["a number where a string goes", s3({ cloudA_s3_bucket: 7 }), ["cloudA_s3_bucket must be a string"]],
    ["a boolean written as a string", s3({ cloudA_s3_disable_tls: "true" }), ["cloudA_s3_disable_tls must be a boolean"]],
    ["local_max_space written as a string", localConfig({ local_max_space: "1000" }), ["local_max_space must be an integer"]],
    ["retain written as a string", localConfig({ retain: "3" }), ["retain must be a positive integer"]],
    ["no bucket for cloudC-gcs", without(gcs(), "cloudC_gcs_bucket"), ["cloudC_gcs_bucket is required for storage_type=cloudC-gcs"]],
    ["a cloudC-gcs path_prefix without a trailing /", gcs({ path_prefix: "p" }), ['path_prefix must end with "/" for storage_type=cloudC-gcs']],
    ["no container for cloudB-blob", without(blob(), "cloudB_container_name"), ["cloudB_container_name is required for storage_type=cloudB-blob"]],
    ["a cloudB-blob path_prefix without a trailing /", blob({ path_prefix: "p" }), ['path_prefix must end with "/" for storage_type=cloudB-blob']],
    ["an unknown cloudB_auth_mode", blob({ cloudB_auth_mode: "environment" }), ["cloudB_auth_mode must be one of shared, managed"]],
  ])("%s", async (_, body, errors) => {
    expect(await api.call("POST", "/config/x", body)).toEqual({ status: 400, body: { errors } });
    expect(api.emulator.snapshot.configs.size).toBe(0);
  });

  test("a body that is not JSON is 400", async () => {
    expect(await api.call("POST", "/config/x", undefined, { raw: "{not json" })).toEqual({
      status: 400,
      body: { errors: ["request body must be a JSON object"] },
    });
  });

  test("the trailing / is optional for local and cloudA-s3", async () => {
    await api.write("a", localConfig({ path_prefix: "/tmp/no-slash" }));
    await api.write("b", s3({ path_prefix: "with-slash/" }));
    await api.write("c", s3({ path_prefix: "no-slash" }));
  });

  test("cloudA and cloudC credentials may be left out", async () => {
    await api.write("a", s3());
    await api.write("c", gcs());
  });

  test("acceptStringScalars: integers and booleans written as strings are taken and read back typed", async () => {
    await api.close();
    api = await SnapshotApi.start({ acceptStringScalars: true });
    await api.write("a", localConfig({ retain: "3", local_max_space: "1000" }));
    expect((await api.call("GET", "/config/a")).body.data).toMatchObject({ retain: 3, local_max_space: 1000 });
    await api.write("b", s3({ cloudA_s3_disable_tls: "true", cloudA_s3_force_path_style: false }));
    expect((await api.call("GET", "/config/b")).body.data).toMatchObject({ cloudA_s3_disable_tls: true, cloudA_s3_force_path_style: false });
    expect(await api.call("POST", "/config/c", localConfig({ retain: "three" }))).toEqual({
      status: 400,
      body: { errors: ["retain must be a positive integer"] },
    });
  });

  test("a failed POST leaves an existing configuration as it was", async () => {
    await api.write("kept", localConfig({ retain: 3 }));
    expect((await api.call("POST", "/config/kept", localConfig({ retain: 0 }))).status).toBe(400);
    expect((await api.call("GET", "/config/kept")).body.data.retain).toBe(3);
  });
});
