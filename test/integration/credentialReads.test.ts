import { startEmulator, type Emulator, type SnapshotEmulatorOptions } from "../../emulator";
import { DEFAULT_SNAPSHOT_TOKEN } from "../../emulator/snapshot/service";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { HIDDEN_CREDENTIALS } from "../../provider/snapshotAutoConfig/credentialReads";
import { snapshotAutoConfigProvider as provider } from "../../provider/snapshotAutoConfig/provider";
import { configureProvider } from "../support/providerConfig";
import { checkedInputs } from "../support/checkedInputs";

/**
 * What a snapshot service shows of the credentials it holds, learned per credential from the read that follows each
 * write, and kept in the state (`__hiddenCredentials`): every shape a service may have (all shown, none, a placeholder
 * for each, the identifiers and not the secrets). On each, a refresh of an unchanged configuration leaves nothing to
 * write; a credential removed outside Pulumi leaves the state wherever the service shows it, so that the next `up`
 * writes it back; one the service hides keeps its value.
 */
type Props = Record<string, unknown>;

let emulator: Emulator;
afterEach(() => emulator.close());
afterAll(() => closeSharedDispatchers());

async function start(echoCredentials: SnapshotEmulatorOptions["echoCredentials"]): Promise<void> {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false, echoCredentials } });
  configureProvider({ "snapshot:address": emulator.url, "snapshot:token": DEFAULT_SNAPSHOT_TOKEN }, { retry: { baseDelayMs: 5, maxDelayMs: 20 } });
}

const configs: Record<string, Props> = {
  s3: {
    name: "s3",
    interval: 3600,
    pathPrefix: "backups",
    storageType: "cloudA-s3",
    cloudAS3Bucket: "snapshots",
    cloudAS3Region: "eu-west-1",
    cloudAAccessKeyId: "AKIACANARY",
    cloudASecretAccessKey: "secret-canary",
    cloudASessionToken: "session-canary",
  },
  blob: {
    name: "blob",
    interval: 3600,
    pathPrefix: "backups/",
    storageType: "cloudB-blob",
    cloudBContainerName: "snapshots",
    cloudBAccountName: "account",
    cloudBAccountKey: "account-key-canary",
  },
  gcs: {
    name: "gcs",
    interval: 3600,
    pathPrefix: "backups/",
    storageType: "cloudC-gcs",
    cloudCGcsBucket: "snapshots",
    cloudCServiceAccountKey: '{"type":"service_account","private_key":"pk-canary"}',
  },
  local: { name: "local", interval: 3600, pathPrefix: "/tmp/credential-reads", storageType: "local", localMaxSpace: 1000 },
};

/** The shapes, each with what the state learns it hides, per configuration. */
const SHAPES: [SnapshotEmulatorOptions["echoCredentials"], string, Record<string, string[]>][] = [
  [true, "shows every credential (the spec's read shape)", { s3: [], blob: [], gcs: [] }],
  [
    false,
    "hides every credential",
    { s3: ["cloudAAccessKeyId", "cloudASecretAccessKey", "cloudASessionToken"], blob: ["cloudBAccountKey"], gcs: ["cloudCServiceAccountKey"] },
  ],
  ["masked", 'reads each one set as "****"', { s3: [], blob: [], gcs: [] }],
  [
    "identifiers",
    "hides the secrets and shows the access key id",
    { s3: ["cloudASecretAccessKey", "cloudASessionToken"], blob: ["cloudBAccountKey"], gcs: ["cloudCServiceAccountKey"] },
  ],
];

describe.each(SHAPES)("a service that (echoCredentials %j) %s", (echo, _what, hidden) => {
  test("the create learns which it hides, by the read after it; a refresh then keeps them all and leaves nothing to write", async () => {
    await start(echo);
    for (const [name, args] of Object.entries(configs)) {
      const program = await checkedInputs(provider, args);
      emulator.requests.reset();
      const { outs } = await provider.create(program);
      // One read after the write, where a credential is set; none where none is (`local`), which keeps no knowledge.
      // (The first GET is the create's own look for a configuration of that name.)
      expect([name, emulator.requests.byRoute()]).toEqual([
        name,
        {
          "POST /v1/sys/storage/raft/snapshot-auto/config/:name": 1,
          "GET /v1/sys/storage/raft/snapshot-auto/config/:name": name === "local" ? 1 : 2,
        },
      ]);
      expect([name, outs[HIDDEN_CREDENTIALS]]).toEqual([name, hidden[name]]);
      let state = outs;
      for (let refresh = 0; refresh < 2; refresh++) {
        const read = await provider.read(name, state);
        expect([name, read.props]).toEqual([name, outs]);
        expect(read.inputs).not.toHaveProperty(HIDDEN_CREDENTIALS);
        expect((await provider.diff(name, read.props, program)).changes).toBe(false);
        state = read.props;
      }
    }
  });

  test("credentials removed outside Pulumi: those it shows leave the state, and the next update writes them back; those it hides stay", async () => {
    await start(echo);
    for (const [name, args] of Object.entries(configs)) {
      if (name === "local") continue;
      const program = await checkedInputs(provider, args);
      const { outs } = await provider.create(program);
      // Every credential removed at the service, as another client's write would.
      const held = emulator.snapshot.configs.get(name)!.config;
      const credentials = Object.keys(held).filter((k) => /access_key|secret|session|account_key|service_account/.test(k));
      for (const k of credentials) delete held[k];
      const read = await provider.read(name, outs);
      const kept = hidden[name];
      const gone = Object.keys(args).filter((k) => /AccessKeyId|Secret|Session|AccountKey|ServiceAccount/.test(k) && !kept.includes(k));
      for (const k of kept) expect([name, k, read.props[k]]).toEqual([name, k, args[k]]);
      for (const k of gone) expect([name, k, read.props[k]]).toEqual([name, k, undefined]);
      const diff = provider.diffDetail(read.props, program);
      expect([name, diff.changed]).toEqual([name, [...gone].sort()]);
      if (gone.length === 0) continue;
      // The update writes the program's back, and the read after it learns the same again.
      const { outs: updated } = await provider.update(name, read.props, program);
      expect(emulator.snapshot.configs.get(name)!.config).toMatchObject(Object.fromEntries(credentials.map((k) => [k, expect.any(String)])));
      expect(updated[HIDDEN_CREDENTIALS]).toEqual(hidden[name]);
    }
  });
});

test("a state written before this was learned reads as before: on a service that shows the access key id, the hidden secret leaves it, and the next update learns", async () => {
  await start("identifiers");
  const program = await checkedInputs(provider, configs.s3);
  await provider.create(program);
  const older: Props = { ...program };
  const read = await provider.read("s3", older);
  expect(read.props).not.toHaveProperty(HIDDEN_CREDENTIALS);
  expect(read.props).not.toHaveProperty("cloudASecretAccessKey");
  const { outs } = await provider.update("s3", read.props, program);
  expect(outs[HIDDEN_CREDENTIALS]).toEqual(["cloudASecretAccessKey", "cloudASessionToken"]);
  const again = await provider.read("s3", outs);
  expect((await provider.diff("s3", again.props, program)).changes).toBe(false);
});

test("a service that comes to show a credential it hid: the read that shows it takes it off the list", async () => {
  await start(false);
  const program = await checkedInputs(provider, configs.gcs);
  const { outs } = await provider.create(program);
  expect(outs[HIDDEN_CREDENTIALS]).toEqual(["cloudCServiceAccountKey"]);
  const held = structuredClone(emulator.snapshot.configs.get("gcs")!);
  // The same configuration, read from a service that now shows its key: it is known shown from then on.
  await emulator.close();
  await start(true);
  emulator.snapshot.restore([{ name: "gcs", ...held }]);
  const read = await provider.read("gcs", outs);
  expect(read.props[HIDDEN_CREDENTIALS]).toEqual([]);
});
