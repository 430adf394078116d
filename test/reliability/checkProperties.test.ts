import fc from "fast-check";
import { startEmulator, type Emulator, DEFAULT_RUNTASK_TOKEN, DEFAULT_SNAPSHOT_TOKEN } from "../../emulator";
import { providers } from "../../provider";
import { UNKNOWN } from "../../provider/common/unknown";
import { snapshotAutoConfigTable, STORAGE_TYPES } from "../../provider/snapshotAutoConfig/fields";
import { groupMembers } from "../../provider/table/derived";
import { closeSharedDispatchers } from "../../provider/http/dispatcher";
import { configureProvider } from "../support/providerConfig";

/**
 * Properties of `check` for every resource: arbitrary JSON never makes it throw, and it sends nothing (it runs
 * during preview); every failure names an argument and gives a reason; and whatever it accepts, the service
 * accepts too, so nothing invalid reaches the network (the emulator validates as the spec says, and answers
 * 400/422 otherwise). The engine calls `create` only with what `check` returned.
 */
type Kind = keyof typeof providers;
const KINDS: Kind[] = ["snapshotAutoConfig", "runTask", "workspaceRunTask"];

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ snapshot: { takeSnapshots: false } });
  configureProvider({
    "snapshot:address": emulator.url,
    "snapshot:token": DEFAULT_SNAPSHOT_TOKEN,
    "runtask:address": emulator.url,
    "runtask:token": DEFAULT_RUNTASK_TOKEN,
    "runtask:organization": "emulator-org",
  });
});
afterAll(async () => {
  await emulator.close();
  await closeSharedDispatchers();
});

const ARGUMENTS: Record<Kind, string[]> = {
  snapshotAutoConfig: [
    "name",
    "interval",
    "retain",
    "pathPrefix",
    "filePrefix",
    "storageType",
    "adopt",
    ...STORAGE_TYPES.flatMap((t) => groupMembers(snapshotAutoConfigTable.fields, t)),
  ],
  runTask: ["organization", "name", "url", "description", "category", "hmacKey", "enabled", "global", "adopt"],
  workspaceRunTask: ["workspaceId", "taskId", "enforcementLevel", "stages", "stage", "adopt"],
};

const anyValue = fc.oneof(fc.jsonValue(), fc.constant(UNKNOWN), fc.constant(undefined));

/** Arguments close to valid ones, so that generated inputs pass `check` often enough to reach the service. */
/** Mostly the valid value, sometimes a mistake users make. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: wrong, weight: 1 });

const common = {
  name: fc.stringMatching(/^[a-z0-9_-]{1,12}$/),
  interval: mostly(
    fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom("24h", "90m", "1h30m", "3600")),
    fc.constantFrom("1.5s", "0", "1 fortnight", -5, 2.5),
  ),
  retain: mostly(fc.integer({ min: 1, max: 20 }), fc.constantFrom(0, -1, "x")),
  filePrefix: mostly(fc.constantFrom("node", "snap"), fc.constant("")),
};
const storage = {
  local: { pathPrefix: fc.constantFrom("/var/snap", "/var/snap/"), localMaxSpace: mostly(fc.integer({ min: 1, max: 1e9 }), fc.constantFrom(0, 1.5)) },
  "cloudA-s3": {
    pathPrefix: fc.constantFrom("p", "p/"),
    cloudAS3Bucket: mostly(fc.constant("bucket"), fc.constant("")),
    cloudAS3Region: fc.constant("region-1"),
    cloudAS3EnableKms: fc.boolean(),
    cloudAS3ServerSideEncryption: fc.boolean(),
    cloudASecretAccessKey: fc.string({ maxLength: 6 }),
  },
  "cloudB-blob": {
    pathPrefix: mostly(fc.constant("p/"), fc.constant("p")),
    cloudBContainerName: fc.constant("c"),
    cloudBAuthMode: mostly(fc.constantFrom("shared", "managed"), fc.constant("magic")),
  },
  "cloudC-gcs": {
    pathPrefix: mostly(fc.constant("p/"), fc.constant("p")),
    cloudCGcsBucket: fc.constant("g"),
    cloudCEndpoint: fc.constantFrom("", "https://gcs.example"),
  },
};
const validStage = fc.constantFrom("pre_plan", "post_plan", "pre_apply", "post_apply");
const stages = mostly(
  fc.uniqueArray(validStage, { minLength: 1, maxLength: 4 }),
  fc.constantFrom([], ["pre-apply"], ["plan"], ["pre_plan", "pre_plan"]),
);

/** Arguments close to valid ones, so that generated inputs pass `check` often enough to reach the service. */
const nearlyValid: Record<Kind, fc.Arbitrary<Record<string, unknown>>> = {
  snapshotAutoConfig: fc.oneof(
    ...Object.entries(storage).map(([type, fields]) =>
      fc.record<Record<string, unknown>>(
        { ...common, ...fields, storageType: mostly(fc.constant(type), fc.constant("tape")) } as { [k: string]: fc.Arbitrary<unknown> },
        { requiredKeys: ["name", "interval", "storageType", "pathPrefix"] },
      ),
    ),
  ),
  runTask: fc.record(
    {
      name: mostly(fc.stringMatching(/^[a-zA-Z0-9_-]{1,10}$/), fc.constantFrom("my task", "x!")),
      url: mostly(fc.constantFrom("https://hooks.example.com/x", "http://h.example"), fc.constantFrom("ftp://x", "nope", "")),
      description: mostly(fc.string({ maxLength: 40 }), fc.string({ minLength: 301, maxLength: 310 })),
      category: mostly(fc.constant("task"), fc.constant("hook")),
      hmacKey: fc.string({ maxLength: 8 }),
      enabled: mostly(fc.boolean(), fc.constant("yes")),
      global: fc.record(
        { enabled: fc.boolean(), stages, enforcementLevel: mostly(fc.constantFrom("advisory", "mandatory"), fc.constant("strict")) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ["name", "url"] },
  ),
  workspaceRunTask: fc.record(
    {
      enforcementLevel: mostly(fc.constantFrom("advisory", "mandatory"), fc.constant("strict")),
      stages,
      stage: mostly(validStage, fc.constant("pre-apply")),
    },
    { requiredKeys: ["enforcementLevel"] },
  ),
};

describe.each(KINDS)("%s check", (kind) => {
  test("never throws on arbitrary JSON, sends nothing, and every failure names an argument and a reason", async () => {
    const requestsBefore = emulator.requests.total();
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 12 }), anyValue, { maxKeys: 8 }), fc.object(), async (news, olds) => {
        const result = await providers[kind].check(olds, news);
        expect(emulator.requests.total()).toBe(requestsBefore);
        for (const f of result.failures ?? []) {
          expect(typeof f.property).toBe("string");
          // The argument named is one of the resource's, or one the user wrote (an unknown one).
          const named = [...ARGUMENTS[kind], ...Object.keys(news), ...Object.keys(news).map((k) => JSON.stringify(k))];
          expect(named.filter((a) => f.property === a || f.property.startsWith(`${a}.`) || f.property.startsWith(`${a}[`))).not.toEqual([]);
          expect(typeof f.reason).toBe("string");
          expect(f.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  test("what it accepts, the service accepts; what it refuses never reaches the service", async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(nearlyValid[kind], fc.nat(), async (args, n) => {
        const news = await withContext(kind, args, n);
        emulator.requests.reset();
        const result = await providers[kind].check({}, news);
        if ((result.failures ?? []).length > 0) {
          refused++;
          expect(emulator.requests.total()).toBe(0);
          return;
        }
        accepted++;
        const { id } = await providers[kind].create(result.inputs);
        expect(id).toBeTruthy();
        // Only a lookup's 404 (is the name free?) may answer anything but success.
        expect(emulator.requests.entries.filter((e) => e.status >= 400 && !(e.status === 404 && e.method === "GET"))).toEqual([]);
      }),
      { numRuns: 120 },
    );
    expect(accepted).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(5);
  });
});

/** Unique names and real ids where the service needs them, so that a create can succeed. */
async function withContext(kind: Kind, args: Record<string, unknown>, n: number): Promise<Record<string, unknown>> {
  const suffix = `${n}-${Math.random().toString(36).slice(2, 8)}`;
  if (kind === "snapshotAutoConfig") return { ...args, name: `${args.name}${suffix}` };
  if (kind === "runTask") return { ...args, name: typeof args.name === "string" ? `${args.name}${suffix}` : args.name };
  const task = await providers.runTask.create((await providers.runTask.check({}, { name: `t${suffix}`, url: "https://h.example" })).inputs!);
  return { ...args, taskId: task.id, workspaceId: emulator.runTask.workspace("network").id };
}
