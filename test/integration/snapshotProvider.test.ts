import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { providers } from "../../provider";
import { startDeployment } from "../../provider/takeover/heldObjects";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { snapshotAutoConfigProvider as provider } from "../../provider/snapshotAutoConfig/provider";
import { configureProvider } from "../support/providerConfig";
import { checkedInputs } from "../support/checkedInputs";

let emulator: Emulator;
let dir: string;

const useToken = (token: string, extra: Record<string, string> = {}) =>
  configureProvider({ "snapshot:address": emulator.url, "snapshot:token": token, ...extra });

beforeEach(async () => {
  emulator = await startEmulator({ snapshot: { tokens: { [DEFAULT_SNAPSHOT_TOKEN]: { sudo: true }, "no-sudo": { sudo: false } } } });
  dir = await mkdtemp(join(tmpdir(), "snapshots-"));
  useToken(DEFAULT_SNAPSHOT_TOKEN);
});

afterEach(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

afterAll(() => closeSharedDispatchers());

const local = () => ({ name: "daily", interval: "24h", pathPrefix: dir, storageType: "local", localMaxSpace: 1_000_000 });

describe("SnapshotAutoConfig provider against the emulator", () => {
  test("create writes the configuration and returns normalised outputs", async () => {
    const inputs = await checkedInputs(provider, local());
    const { id, outs } = await provider.create(inputs);
    expect(id).toBe("daily");
    expect(outs).toEqual({
      name: "daily",
      interval: 86400,
      retain: 1,
      filePrefix: "service-snapshot",
      pathPrefix: dir,
      storageType: "local",
      localMaxSpace: 1_000_000,
    });
    expect(emulator.snapshot.configs.get("daily")?.config).toEqual({
      interval: 86400,
      retain: 1,
      path_prefix: dir,
      file_prefix: "service-snapshot",
      storage_type: "local",
      local_max_space: 1_000_000,
    });
    expect(emulator.requests.byRoute()).toEqual({
      "GET /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
      "POST /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
    });
  });

  test("create refuses to overwrite an existing configuration, saying so when another resource of the deployment holds it", async () => {
    await provider.create(await checkedInputs(provider, local()));
    await expect(provider.create(await checkedInputs(provider, { ...local(), retain: 5 }))).rejects.toMatchObject({
      code: "conflict",
      message:
        'snapshot configuration "daily" already exists, and another resource of this stack holds it: two resources give the same `name` ' +
        "(a configuration's name is the resource's name where `name` is not given). Give each its own; a create never overwrites an object.",
    });
    startDeployment(); // a later up: the configuration was made before it
    await expect(provider.create(await checkedInputs(provider, { ...local(), retain: 5 }))).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(
        /^snapshot configuration "daily" already exists \(daily\); a create never overwrites it\. Which of these it is cannot be told here: another stack or program manages it .*`daily-\$\{pulumi\.getStack\(\)\}`.*adopting it would make both manage it.*`aliases`.*`deleteBeforeReplace: true`.*`pulumi refresh --clear-pending-creates`.*set `adopt: true`; through the provider plugins, `pulumi import` it\)$/,
      ),
    });
    expect(emulator.snapshot.configs.get("daily")?.config.retain).toBe(1);
  });

  test("adopt takes an existing configuration over", async () => {
    await provider.create(await checkedInputs(provider, local()));
    const { outs } = await provider.create(await checkedInputs(provider, { ...local(), retain: 5, adopt: true }));
    expect(outs).toMatchObject({ retain: 5, adopt: true });
    expect(emulator.snapshot.configs.get("daily")?.config.retain).toBe(5);
  });

  test("cloud types send only the selected storage type's fields", async () => {
    const inputs = await checkedInputs(provider, {
      name: "s3",
      interval: 3600,
      pathPrefix: "backups",
      storageType: "cloudA-s3",
      cloudAS3Bucket: "bucket",
      cloudAS3Region: "region-1",
      cloudASecretAccessKey: "sk-canary",
      cloudAS3ForcePathStyle: true,
    });
    await provider.create(inputs);
    expect(emulator.snapshot.configs.get("s3")?.config).toEqual({
      interval: 3600,
      retain: 1,
      path_prefix: "backups",
      file_prefix: "service-snapshot",
      storage_type: "cloudA-s3",
      cloudA_s3_bucket: "bucket",
      cloudA_s3_region: "region-1",
      cloudA_secret_access_key: "sk-canary",
      cloudA_s3_force_path_style: true,
    });
  });

  test("read reports drift, keeps credentials the service omits, and drops a deleted configuration", async () => {
    // Pinned to the emulator's former reads without credentials (its default is now the spec's read shape,
    // which carries every parameter of the storage type); otherwise this would not test an omitting service.
    await emulator.close();
    emulator = await startEmulator({
      snapshot: { tokens: { [DEFAULT_SNAPSHOT_TOKEN]: { sudo: true }, "no-sudo": { sudo: false } }, echoCredentials: false },
    });
    useToken(DEFAULT_SNAPSHOT_TOKEN);
    const inputs = await checkedInputs(provider, {
      name: "gcs",
      interval: 60,
      pathPrefix: "p/",
      storageType: "cloudC-gcs",
      cloudCGcsBucket: "b",
      cloudCServiceAccountKey: '{"k":1}',
    });
    const { outs } = await provider.create(inputs);
    // The read after the create showed that this service hides the key: the state says so, the inputs do not.
    const { __hiddenCredentials: hidden, ...args } = outs;
    expect(hidden).toEqual(["cloudCServiceAccountKey"]);
    const same = await provider.read("gcs", { __provider: "x", ...outs });
    expect(same).toEqual({ id: "gcs", props: outs, inputs: args });

    emulator.snapshot.configs.get("gcs")!.config.retain = 9;
    const drifted = await provider.read("gcs", { ...outs });
    expect(drifted.props).toMatchObject({ retain: 9, cloudCServiceAccountKey: '{"k":1}', __hiddenCredentials: hidden });
    expect(drifted.inputs).toEqual({ ...args, retain: 9 });

    emulator.snapshot.configs.delete("gcs");
    expect(await provider.read("gcs", outs)).toEqual({ id: "", props: {} });
  });

  test("read takes credentials from the service when it echoes them", async () => {
    await emulator.close();
    emulator = await startEmulator({ snapshot: { echoCredentials: true } });
    useToken(DEFAULT_SNAPSHOT_TOKEN);
    const inputs = await checkedInputs(provider, {
      name: "blob",
      interval: 60,
      pathPrefix: "p/",
      storageType: "cloudB-blob",
      cloudBContainerName: "c",
      cloudBAccountKey: "old",
    });
    const { outs } = await provider.create(inputs);
    (emulator.snapshot.configs.get("blob")!.config as Record<string, unknown>).cloudB_account_key = "rotated";
    expect((await provider.read("blob", outs!)).props).toMatchObject({ cloudBAccountKey: "rotated" });
  });

  test("update posts the new configuration", async () => {
    const { outs } = await provider.create(await checkedInputs(provider, local()));
    const news = await checkedInputs(provider, { ...local(), interval: 3600, retain: 3 });
    await expect(provider.diff("daily", outs!, news)).resolves.toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
    const updated = await provider.update("daily", outs!, news);
    expect(updated.outs).toMatchObject({ interval: 3600, retain: 3 });
    expect(emulator.snapshot.configs.get("daily")?.config).toMatchObject({ interval: 3600, retain: 3 });
  });

  test("delete removes the configuration; deleting again succeeds", async () => {
    const { outs } = await provider.create(await checkedInputs(provider, local()));
    startDeployment(); // a destroy, after the up that created it
    await provider.delete("daily", outs!);
    expect(emulator.snapshot.configs.has("daily")).toBe(false);
    await expect(provider.delete("daily", outs!)).resolves.toBeUndefined();
  });

  test("a token without sudo gets a 403 that says what is missing and never shows the token", async () => {
    useToken("no-sudo");
    const err = await provider.create(await checkedInputs(provider, local())).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      "snapshot service: GET /sys/storage/raft/snapshot-auto/config/daily failed (HTTP 403): " +
        "permission denied: this path requires the sudo capability; the token (snapshot:token / SERVICE_TOKEN) is not valid, " +
        "or lacks the sudo capability on sys/storage/raft/snapshot-auto/* (the configuration endpoints need it)",
    );
    expect((err as Error).message).not.toContain("no-sudo");
  });

  test("a non-root namespace fails every call once the provider is configured, its check first, before any request", async () => {
    useToken(DEFAULT_SNAPSHOT_TOKEN, { "snapshot:namespace": "team-a" });
    await expect(providers.snapshotAutoConfig.check({}, local())).rejects.toThrow(
      /^the provider's settings are wrong: snapshot namespace is "team-a" \(from snapshot:namespace\), but the automated snapshot endpoints are restricted to the root namespace/,
    );
    await expect(provider.create(local())).rejects.toThrow(/restricted to the root namespace/);
    expect(emulator.requests.total()).toBe(0);
  });

  test("the emulator refuses a namespace header on these endpoints", async () => {
    const res = await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config`, {
      method: "GET",
      headers: { "x-service-token": DEFAULT_SNAPSHOT_TOKEN, "x-service-namespace": "team-a" },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errors: string[] }).errors[0]).toMatch(/restricted to the root namespace/);
  });

  test("without a license, calls fail with an explanation, and read does not mistake it for deletion", async () => {
    await emulator.close();
    emulator = await startEmulator({ snapshot: { licensed: false } });
    useToken(DEFAULT_SNAPSHOT_TOKEN);
    await expect(provider.create(await checkedInputs(provider, local()))).rejects.toThrow(/enterprise license/);
    await expect(provider.read("daily", {})).rejects.toThrow(/HTTP 404/);
  });

  test("missing credentials name the config key and the environment variable", async () => {
    configureProvider({});
    const saved = { addr: process.env.SERVICE_ADDR, token: process.env.SERVICE_TOKEN };
    delete process.env.SERVICE_ADDR;
    delete process.env.SERVICE_TOKEN;
    try {
      await expect(provider.read("x", {})).rejects.toThrow(
        "snapshot service address is not set: run `pulumi config set snapshot:address <value>` (the service's base address, e.g. https://snapshots.example.com:8200), or set the environment variable SERVICE_ADDR",
      );
    } finally {
      Object.assign(process.env, { SERVICE_ADDR: saved.addr ?? "", SERVICE_TOKEN: saved.token ?? "" });
    }
  });

  test("the service validates what the provider would not send", async () => {
    const res = await fetch(`${emulator.url}/v1/sys/storage/raft/snapshot-auto/config/bad`, {
      method: "POST",
      headers: { "x-service-token": DEFAULT_SNAPSHOT_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ interval: "1 fortnight", path_prefix: "p", storage_type: "cloudB-blob", cloudA_s3_bucket: "x" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: [
        'invalid interval "1 fortnight"',
        "unknown field cloudA_s3_bucket for storage_type=cloudB-blob",
        'path_prefix must end with "/" for storage_type=cloudB-blob',
        "cloudB_container_name is required for storage_type=cloudB-blob",
      ],
    });
  });
});

describe("local snapshots taken by the emulator", () => {
  test("writes snapshot files on the interval, keeps `retain` of them and reports status", async () => {
    const inputs = await checkedInputs(provider, { ...local(), name: "fast", interval: 1, retain: 2, filePrefix: "node" });
    await provider.create(inputs);
    for (let i = 0; i < 3; i++) await emulator.snapshot.snapshotNow("fast");
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^node-\d+\.snap$/);
    const status = emulator.snapshot.configs.get("fast")!.status;
    expect(status.last_snapshot_error).toBe("");
    expect(status.last_snapshot_url).toBe(`file://${join(dir, files[1])}`);
    expect(status.last_snapshot_start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  });

  test("the interval timer takes snapshots by itself", async () => {
    await provider.create(await checkedInputs(provider, { ...local(), name: "timer", interval: 1 }));
    const deadline = Date.now() + 10_000;
    while (emulator.snapshot.configs.get("timer")!.status.last_snapshot_url === "" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(emulator.snapshot.configs.get("timer")!.status.last_snapshot_url).toMatch(/^file:\/\/.*service-snapshot-\d+\.snap$/);
  });

  test("an attempt beyond local_max_space fails and is reported in last_snapshot_error", async () => {
    await provider.create(await checkedInputs(provider, { ...local(), name: "tiny", localMaxSpace: 10 }));
    const status = await emulator.snapshot.snapshotNow("tiny");
    expect(status?.last_snapshot_error).toMatch(/^insufficient space: snapshot of \d+ bytes exceeds local_max_space 10/);
    expect(await readdir(dir)).toEqual([]);
  });

  test("cloud snapshots are simulated with the bucket's URL", async () => {
    await provider.create(
      await checkedInputs(provider, { name: "c", interval: 60, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "bkt" }),
    );
    const status = await emulator.snapshot.snapshotNow("c");
    expect(status?.last_snapshot_url).toMatch(/^https:\/\/storage\.cloudC\.invalid\/bkt\/p\/service-snapshot-\d+\.snap$/);
  });
});

describe("listing and status through the emulator's HTTP API", () => {
  const headers = () => ({ "x-service-token": DEFAULT_SNAPSHOT_TOKEN });
  const base = () => `${emulator.url}/v1/sys/storage/raft/snapshot-auto`;

  test("an empty list is 404 with no errors; LIST and GET ?list=true list names", async () => {
    // Pinned to the emulator's former acceptance of GET ?list=true (now an option; the spec lists with LIST only).
    await emulator.close();
    emulator = await startEmulator({
      snapshot: { tokens: { [DEFAULT_SNAPSHOT_TOKEN]: { sudo: true }, "no-sudo": { sudo: false } }, acceptGetList: true },
    });
    useToken(DEFAULT_SNAPSHOT_TOKEN);
    let res = await fetch(`${base()}/config`, { method: "LIST", headers: headers() });
    expect([res.status, await res.json()]).toEqual([404, { errors: [] }]);
    for (const name of ["b", "a"]) await provider.create(await checkedInputs(provider, { ...local(), name }));
    res = await fetch(`${base()}/config`, { method: "LIST", headers: headers() });
    expect([res.status, await res.json()]).toEqual([200, { data: { keys: ["a", "b"] } }]);
    res = await fetch(`${base()}/config?list=true`, { headers: headers() });
    expect([res.status, await res.json()]).toEqual([200, { data: { keys: ["a", "b"] } }]);
  });

  test("status of a missing configuration is 404; a token is required", async () => {
    let res = await fetch(`${base()}/status/none`, { headers: headers() });
    expect(res.status).toBe(404);
    res = await fetch(`${base()}/status/none`);
    expect([res.status, await res.json()]).toEqual([403, { errors: ["permission denied"] }]);
  });
});
