import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localConfig, NO_ENTRY, SnapshotApi } from "../support/snapshotApi";

let api: SnapshotApi;
afterEach(() => api.close());

describe("snapshot emulator: configuration endpoints", () => {
  beforeEach(async () => {
    api = await SnapshotApi.start();
  });

  test("POST: 204 with no body; a read gives the read shape with the defaults filled in", async () => {
    expect(await api.call("POST", "/config/nightly", localConfig())).toEqual({ status: 204, body: undefined });
    expect(await api.call("GET", "/config/nightly")).toEqual({
      status: 200,
      body: {
        data: {
          interval: 3600,
          retain: 1,
          path_prefix: "/tmp/snapshots",
          file_prefix: "service-snapshot",
          storage_type: "local",
          local_max_space: 1_000_000,
        },
      },
    });
  });

  test.each<[unknown, number]>([
    ["24h", 86400],
    ["90m", 5400],
    ["1h30m", 5400],
    ["1.5h", 5400],
    // Go's time.ParseDuration takes a part without digits before its point, or after it, and a sign.
    [".5h", 1800],
    ["1.h", 3600],
    ["+24h", 86400],
    ["1h0.5m", 3630],
    ["1500ms", 1],
    ["3600", 3600],
    ["+3600", 3600],
    [120, 120],
  ])("interval %j is read back as %d seconds", async (interval, seconds) => {
    await api.write("i", localConfig({ interval }));
    expect((await api.call("GET", "/config/i")).body.data.interval).toBe(seconds);
  });

  test("POST again updates: the new body replaces the old one", async () => {
    await api.write("c", localConfig({ retain: 5, file_prefix: "old" }));
    await api.write("c", localConfig({ interval: "2h" }));
    expect((await api.call("GET", "/config/c")).body.data).toMatchObject({ interval: 7200, retain: 1, file_prefix: "service-snapshot" });
  });

  test("LIST: the names, sorted; 404 with an empty error list when there are none", async () => {
    expect(await api.call("LIST", "/config")).toEqual({ status: 404, body: NO_ENTRY });
    for (const name of ["weekly", "daily", "hourly"]) await api.write(name, localConfig());
    expect(await api.call("LIST", "/config")).toEqual({ status: 200, body: { data: { keys: ["daily", "hourly", "weekly"] } } });
  });

  test("DELETE: 204, then the read, the status and a second delete are 404 with an empty error list", async () => {
    await api.write("gone", localConfig());
    expect(await api.call("DELETE", "/config/gone")).toEqual({ status: 204, body: undefined });
    expect(await api.call("GET", "/config/gone")).toEqual({ status: 404, body: NO_ENTRY });
    expect(await api.call("GET", "/status/gone")).toEqual({ status: 404, body: NO_ENTRY });
    expect(await api.call("DELETE", "/config/gone")).toEqual({ status: 404, body: NO_ENTRY });
  });

  test("status: every field an empty string before the first snapshot", async () => {
    await api.write("s", localConfig());
    expect(await api.call("GET", "/status/s")).toEqual({
      status: 200,
      body: {
        data: {
          snapshot_start: "",
          snapshot_url: "",
          last_snapshot_start: "",
          last_snapshot_end: "",
          last_snapshot_url: "",
          last_snapshot_error: "",
        },
      },
    });
  });

  test("each cloud type keeps the fields of its group", async () => {
    const configs: Record<string, Record<string, unknown>> = {
      s3: {
        storage_type: "cloudA-s3",
        path_prefix: "backups",
        cloudA_s3_bucket: "b",
        cloudA_s3_region: "r",
        cloudA_s3_endpoint: "http://127.0.0.1:9000",
        cloudA_s3_force_path_style: true,
      },
      gcs: { storage_type: "cloudC-gcs", path_prefix: "backups/", cloudC_gcs_bucket: "b", cloudC_disable_tls: false },
      blob: { storage_type: "cloudB-blob", path_prefix: "backups/", cloudB_container_name: "c", cloudB_auth_mode: "managed", cloudB_client_id: "id" },
    };
    for (const [name, config] of Object.entries(configs)) {
      await api.write(name, { interval: 60, ...config });
      expect((await api.call("GET", `/config/${name}`)).body.data).toEqual({ interval: 60, retain: 1, file_prefix: "service-snapshot", ...config });
    }
  });
});

describe("snapshot emulator: credentials in reads (echoCredentials)", () => {
  const s3 = {
    interval: 60,
    path_prefix: "p",
    storage_type: "cloudA-s3",
    cloudA_s3_bucket: "b",
    cloudA_s3_region: "r",
    cloudA_access_key_id: "AKID",
    cloudA_secret_access_key: "secret",
    cloudA_session_token: "session",
  };
  const gcs = {
    interval: 60,
    path_prefix: "p/",
    storage_type: "cloudC-gcs",
    cloudC_gcs_bucket: "b",
    cloudC_service_account_key: '{"type":"service_account"}',
  };
  const blob = {
    interval: 60,
    path_prefix: "p/",
    storage_type: "cloudB-blob",
    cloudB_container_name: "c",
    cloudB_auth_mode: "shared",
    cloudB_account_key: "key",
  };
  const CREDENTIALS = [
    "cloudA_access_key_id",
    "cloudA_secret_access_key",
    "cloudA_session_token",
    "cloudC_service_account_key",
    "cloudB_account_key",
  ];

  test("by default a read carries every parameter of the storage type, credentials included, as the spec's read shape says", async () => {
    api = await SnapshotApi.start();
    for (const [name, config] of Object.entries({ s3, gcs, blob })) {
      await api.write(name, config);
      expect((await api.call("GET", `/config/${name}`)).body.data).toEqual({ retain: 1, file_prefix: "service-snapshot", ...config });
    }
  });

  test("echoCredentials: false leaves the credentials out and keeps the rest", async () => {
    api = await SnapshotApi.start({ echoCredentials: false });
    for (const [name, config] of Object.entries({ s3, gcs, blob })) {
      await api.write(name, config);
      const data = (await api.call("GET", `/config/${name}`)).body.data;
      const expected = Object.fromEntries(Object.entries(config).filter(([k]) => !CREDENTIALS.includes(k)));
      expect(data).toEqual({ retain: 1, file_prefix: "service-snapshot", ...expected });
      // The service still holds them.
      expect(api.emulator.snapshot.configs.get(name)!.config).toMatchObject(config);
    }
  });

  test('echoCredentials: "masked" reads each credential set as "****", and keeps the rest', async () => {
    api = await SnapshotApi.start({ echoCredentials: "masked" });
    for (const [name, config] of Object.entries({ s3, gcs, blob })) {
      await api.write(name, config);
      const data = (await api.call("GET", `/config/${name}`)).body.data;
      const expected = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, CREDENTIALS.includes(k) ? "****" : v]));
      expect(data).toEqual({ retain: 1, file_prefix: "service-snapshot", ...expected });
      expect(api.emulator.snapshot.configs.get(name)!.config).toMatchObject(config);
    }
  });

  test('echoCredentials: "identifiers" leaves the secrets out and shows the access key id, the account name and the client id', async () => {
    api = await SnapshotApi.start({ echoCredentials: "identifiers" });
    const managed = {
      ...blob,
      cloudB_auth_mode: "managed",
      cloudB_account_name: "account",
      cloudB_client_id: "client",
      cloudB_account_key: undefined,
    };
    for (const [name, config] of Object.entries({ s3, gcs, blob: { ...blob, cloudB_account_name: "account" }, managed })) {
      await api.write(name, JSON.parse(JSON.stringify(config)));
      const data = (await api.call("GET", `/config/${name}`)).body.data;
      const shown = Object.fromEntries(
        Object.entries(config).filter(([k, v]) => v !== undefined && (k === "cloudA_access_key_id" || !CREDENTIALS.includes(k))),
      );
      expect(data).toEqual({ retain: 1, file_prefix: "service-snapshot", ...shown });
    }
    expect((await api.call("GET", "/config/s3")).body.data.cloudA_access_key_id).toBe("AKID");
  });
});

describe("snapshot emulator: snapshots of local configurations", () => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "emulator-snapshots-"));
    api = await SnapshotApi.start();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("snapshotNow writes <path_prefix>/<file_prefix>-<n>.snap, keeps `retain` of them and reports the status", async () => {
    await api.write("keep2", localConfig({ path_prefix: dir, file_prefix: "db", retain: 2 }));
    for (let i = 0; i < 3; i++) await api.emulator.snapshot.snapshotNow("keep2");
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^db-\d+\.snap$/);
    const status = (await api.call("GET", "/status/keep2")).body.data;
    expect(status.last_snapshot_url).toBe(`file://${join(dir, files[1])}`);
    expect(status.last_snapshot_error).toBe("");
    expect(status.last_snapshot_start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  });

  test("an interval longer than a Node.js timer holds (24.8 days) waits for it: no snapshot before, and no timer warning", async () => {
    await api.close();
    api = await SnapshotApi.start({ takeSnapshots: true });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      await api.write("monthly", localConfig({ path_prefix: dir, interval: "720h" }));
      await api.write("quarterly", localConfig({ path_prefix: dir, file_prefix: "q", interval: 90 * 86400 }));
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      process.off("warning", onWarning);
    }
    expect(readdirSync(dir)).toEqual([]);
    expect((await api.call("GET", "/status/monthly")).body.data.last_snapshot_start).toBe("");
    expect(warnings).toEqual([]);
  });

  test("a snapshot that does not fit in local_max_space fails and says why", async () => {
    await api.write("tiny", localConfig({ path_prefix: dir, local_max_space: 10 }));
    const status = await api.emulator.snapshot.snapshotNow("tiny");
    expect(status?.last_snapshot_error).toMatch(/insufficient space/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

test("a malformed percent-escape in a path is 400 in the service's error shape, never a 500", async () => {
  api = await SnapshotApi.start();
  expect(await api.call("GET", "/config/bad%zzname")).toEqual({ status: 400, body: { errors: ['invalid URL escape "%zz" in the path'] } });
  expect(await api.call("POST", "/config/bad%e9", localConfig())).toEqual({
    status: 400,
    body: { errors: ['invalid URL escape "%e9" in the path'] },
  });
  expect(await api.call("DELETE", "/config/trailing%")).toEqual({ status: 400, body: { errors: ['invalid URL escape "%" in the path'] } });
  expect(api.emulator.snapshot.configs.size).toBe(0);
  // A well-formed escape names the configuration as decoded.
  await api.write("with%20space", localConfig());
  expect([...api.emulator.snapshot.configs.keys()]).toEqual(["with space"]);
});

describe("snapshot emulator: synonyms the spec does not list (acceptPut, acceptGetList, letterOfSpec)", () => {
  const UNSUPPORTED_OPERATION = { status: 405, body: { errors: ["1 error occurred:\n\t* unsupported operation\n\n"] } };

  test("by default PUT creates and updates as POST does, with the same checks, as the real service takes it", async () => {
    api = await SnapshotApi.start({ tokens: { root: { sudo: true }, reader: {} } });
    expect(await api.call("PUT", "/config/p", localConfig({ retain: 2 }), { token: "root" })).toEqual({ status: 204, body: undefined });
    expect((await api.call("PUT", "/config/p", localConfig({ retain: 0 }), { token: "root" })).status).toBe(400);
    expect((await api.call("PUT", "/config/p", localConfig(), { token: "reader" })).status).toBe(403);
    expect((await api.call("GET", "/config/p", undefined, { token: "root" })).body.data.retain).toBe(2);
    expect(await api.call("PUT", "/config/p", localConfig({ retain: 3 }), { token: "root" })).toEqual({ status: 204, body: undefined });
    expect((await api.call("GET", "/config/p", undefined, { token: "root" })).body.data.retain).toBe(3);
  });

  test("by default GET ?list=true lists as LIST does; GET without it is 405", async () => {
    api = await SnapshotApi.start({ tokens: { root: { sudo: true }, reader: {} } });
    expect(await api.call("GET", "/config?list=true", undefined, { token: "root" })).toEqual({ status: 404, body: NO_ENTRY });
    for (const name of ["b", "a"]) await api.call("POST", `/config/${name}`, localConfig(), { token: "root" });
    const listed = { status: 200, body: { data: { keys: ["a", "b"] } } };
    expect(await api.call("GET", "/config?list=true", undefined, { token: "root" })).toEqual(listed);
    expect(await api.call("LIST", "/config", undefined, { token: "root" })).toEqual(listed);
    expect(await api.call("GET", "/config", undefined, { token: "root" })).toEqual(UNSUPPORTED_OPERATION);
    expect(await api.call("GET", "/config?list=false", undefined, { token: "root" })).toEqual(UNSUPPORTED_OPERATION);
    expect((await api.call("GET", "/config?list=true", undefined, { token: "reader" })).status).toBe(403);
  });

  test("letterOfSpec: PUT and GET ?list=true are 405, and change nothing: the spec lists POST and LIST only", async () => {
    api = await SnapshotApi.start({ letterOfSpec: true });
    await api.write("a", localConfig());
    expect(await api.call("PUT", "/config/b", localConfig())).toEqual(UNSUPPORTED_OPERATION);
    expect(await api.call("PUT", "/config/a", localConfig({ retain: 9 }))).toEqual(UNSUPPORTED_OPERATION);
    expect(await api.call("GET", "/config?list=true")).toEqual(UNSUPPORTED_OPERATION);
    expect(await api.call("GET", "/config")).toEqual(UNSUPPORTED_OPERATION);
    expect([...api.emulator.snapshot.configs.keys()]).toEqual(["a"]);
    expect((await api.call("GET", "/config/a")).body.data.retain).toBe(1);
    expect(await api.call("LIST", "/config")).toEqual({ status: 200, body: { data: { keys: ["a"] } } });
  });

  test("each synonym alone: acceptPut or acceptGetList given wins over letterOfSpec, and false turns one off", async () => {
    api = await SnapshotApi.start({ letterOfSpec: true, acceptPut: true });
    expect((await api.call("PUT", "/config/p", localConfig())).status).toBe(204);
    expect(await api.call("GET", "/config?list=true")).toEqual(UNSUPPORTED_OPERATION);
    await api.close();
    api = await SnapshotApi.start({ acceptGetList: false });
    expect((await api.call("PUT", "/config/p", localConfig())).status).toBe(204);
    expect(await api.call("GET", "/config?list=true")).toEqual(UNSUPPORTED_OPERATION);
  });
});
