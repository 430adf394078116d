import { startEmulator, type Emulator, type FaultOptions, type SnapshotEmulatorOptions } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { PartialFailure } from "../../provider/common/partialFailure";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { snapshotAutoConfigProvider as provider } from "../../provider/snapshotAutoConfig/provider";
import { failure } from "../support/failure";
import { configureProvider } from "../support/providerConfig";
import { Switchboard } from "../support/switchboard";
import { checkedInputs } from "../support/checkedInputs";

/**
 * A service that masks credentials on read, answering `"****"` for each one set: the placeholder is no value. It
 * never gets into the state (a refresh, an import, what a partial failure records) nor back to the service.
 */
type Props = Record<string, unknown>;

const MASK = "****";
let emulator: Emulator;
const calls = new Switchboard();

async function start(snapshot: SnapshotEmulatorOptions = {}, faults?: FaultOptions): Promise<void> {
  calls.reset();
  emulator = await startEmulator({
    snapshot: { takeSnapshots: false, echoCredentials: "masked", ...snapshot },
    faults,
    interceptors: [calls.interceptor],
  });
  configureProvider(
    { "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN, "snapshot:maxRetries": "1" },
    { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  );
}
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

const credentials = { cloudAAccessKeyId: "AKIA-masked-0001", cloudASecretAccessKey: "secret-masked-0001" };
const s3 = (extra: Props = {}): Props => ({
  name: "nightly",
  interval: "24h",
  pathPrefix: "backups",
  storageType: "cloudA-s3",
  cloudAS3Bucket: "snapshots",
  cloudAS3Region: "eu-west-1",
  ...credentials,
  ...extra,
});
const masked = (props: Props | undefined) => JSON.stringify(props ?? {}).includes(MASK);
const held = () => emulator.snapshot.configs.get("nightly")?.config;

test("a refresh keeps the state's credentials: no diff, no placeholder", async () => {
  await start();
  const program = await checkedInputs(provider, s3());
  const { outs } = await provider.create(program);
  const { props, inputs } = await provider.read("nightly", outs);
  expect(props).toMatchObject(credentials);
  expect(masked(props) || masked(inputs)).toBe(false);
  expect((await provider.diff("nightly", props!, program)).changes).toBe(false);
});

test("an import answers no placeholder (the credentials stay unknown), so a program written from it writes none", async () => {
  await start();
  await provider.create(await checkedInputs(provider, s3()));
  const { props, inputs } = await provider.read("nightly", {});
  expect(masked(props) || masked(inputs)).toBe(false);
  expect(props).not.toHaveProperty("cloudAAccessKeyId");
  // Its inputs pass Check, and an update from them (a program as the import wrote it) sends no placeholder.
  const program = await checkedInputs(provider, { ...inputs, interval: 3600 });
  await provider.update("nightly", props!, program);
  expect(JSON.stringify(held())).not.toContain(MASK);
});

test("a create whose answer is lost is recorded by a read that masks: the program's credentials, not the placeholder", async () => {
  await start({}, { rules: [{ route: "POST /v1/sys/storage/raft/snapshot-auto/config/:name", rates: { dropAfterCommit: 1 } }] });
  const err = (await failure(provider.create(await checkedInputs(provider, s3())))) as PartialFailure;
  expect(err).toBeInstanceOf(PartialFailure);
  expect(err.properties).toMatchObject(credentials);
  expect(masked(err.properties)).toBe(false);
});

test("an adopt's switch whose DELETE fails, on a service that merges writes: what is recorded holds no placeholder", async () => {
  await start({ postMerges: true });
  await provider.create(await checkedInputs(provider, s3()));
  calls.answers.push((req) => (req.method === "DELETE" ? { status: 503, body: { errors: ["sealed"] } } : undefined));
  const local = await checkedInputs(provider, {
    name: "nightly",
    interval: "24h",
    pathPrefix: "/tmp/snaps",
    storageType: "local",
    localMaxSpace: 1_000_000,
    adopt: true,
  });
  const err = (await failure(provider.create(local))) as PartialFailure;
  expect(err).toBeInstanceOf(PartialFailure);
  expect(masked(err.properties)).toBe(false);
  calls.reset();
  await provider.update("nightly", err.properties, local);
  expect(JSON.stringify(held())).not.toContain(MASK);
  expect(Object.keys(held()!).filter((k) => k.startsWith("cloudA"))).toEqual([]);
});
