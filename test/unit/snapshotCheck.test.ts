import { checkSnapshotAutoConfig } from "../../provider/snapshotAutoConfig/fields";
import { UNKNOWN } from "../../provider/common/unknown";

const local = { name: "daily", interval: "24h", pathPrefix: "/snapshots", storageType: "local", localMaxSpace: 1_000_000 };

describe("checkSnapshotAutoConfig", () => {
  test("the longest interval the service holds passes, in seconds or as a duration", () => {
    expect(checkSnapshotAutoConfig({ ...local, interval: 9_223_372_036 }).failures).toEqual([]);
    expect(checkSnapshotAutoConfig({ ...local, interval: "2562047h" }).inputs).toMatchObject({ interval: 2562047 * 3600 });
  });

  test("normalises interval and fills defaults", () => {
    expect(checkSnapshotAutoConfig({ ...local, __provider: "text" })).toEqual({
      inputs: { ...local, interval: 86400, retain: 1, filePrefix: "service-snapshot" },
      failures: [],
    });
  });

  test("keeps given retain and filePrefix; drops empty optional strings", () => {
    const r = checkSnapshotAutoConfig({
      name: "s3",
      interval: 3600,
      retain: "7",
      filePrefix: "nightly",
      pathPrefix: "backups",
      storageType: "cloudA-s3",
      cloudAS3Bucket: "b",
      cloudAS3Region: "r1",
      cloudAS3Endpoint: "",
    });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({
      name: "s3",
      interval: 3600,
      retain: 7,
      filePrefix: "nightly",
      pathPrefix: "backups",
      storageType: "cloudA-s3",
      cloudAS3Bucket: "b",
      cloudAS3Region: "r1",
    });
  });

  test.each<[string, Record<string, unknown>, { property: string; reason: string }[]]>([
    [
      "missing required common fields",
      { name: "x" },
      [
        { property: "interval", reason: "is required" },
        { property: "pathPrefix", reason: "is required" },
        { property: "storageType", reason: "is required" },
      ],
    ],
    [
      "local without localMaxSpace",
      { ...local, localMaxSpace: undefined },
      [{ property: "localMaxSpace", reason: 'is required when storageType is "local"' }],
    ],
    ["localMaxSpace not positive", { ...local, localMaxSpace: 0 }, [{ property: "localMaxSpace", reason: "must be at least 1" }]],
    ["localMaxSpace fractional", { ...local, localMaxSpace: 1.5 }, [{ property: "localMaxSpace", reason: "must be a whole number" }]],
    [
      "field of another storage type",
      { ...local, cloudAS3Bucket: "b" },
      [{ property: "cloudAS3Bucket", reason: 'belongs to storage type "cloudA-s3" and cannot be set when storageType is "local"' }],
    ],
    [
      "cloud type required fields",
      { name: "g", interval: 60, pathPrefix: "p/", storageType: "cloudC-gcs" },
      [{ property: "cloudCGcsBucket", reason: 'is required when storageType is "cloudC-gcs"' }],
    ],
    [
      "trailing slash for cloudB-blob",
      { name: "b", interval: 60, pathPrefix: "prefix", storageType: "cloudB-blob", cloudBContainerName: "c" },
      [{ property: "pathPrefix", reason: 'must end with "/" for storage type "cloudB-blob" (got "prefix")' }],
    ],
    [
      "KMS with SSE",
      {
        name: "s",
        interval: 60,
        pathPrefix: "p",
        storageType: "cloudA-s3",
        cloudAS3Bucket: "b",
        cloudAS3Region: "r",
        cloudAS3EnableKms: true,
        cloudAS3ServerSideEncryption: true,
      },
      [
        {
          property: "cloudAS3EnableKms",
          reason: "cannot be combined with cloudAS3ServerSideEncryption: choose KMS encryption or AES256 server-side encryption",
        },
      ],
    ],
    [
      "a KMS key without KMS encryption",
      { name: "s", interval: 60, pathPrefix: "p", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r", cloudAS3KmsKey: "alias/snap" },
      [
        {
          property: "cloudAS3KmsKey",
          reason: "is used only when cloudAS3EnableKms is true (the service would ignore it): set cloudAS3EnableKms: true, or remove cloudAS3KmsKey",
        },
      ],
    ],
    [
      "an account key with managed authentication",
      {
        name: "b",
        interval: 60,
        pathPrefix: "p/",
        storageType: "cloudB-blob",
        cloudBContainerName: "c",
        cloudBAuthMode: "managed",
        cloudBAccountKey: "k",
      },
      [
        {
          property: "cloudBAccountKey",
          reason:
            'is used for "shared" authentication, and cloudBAuthMode is "managed" (the service would ignore it): remove cloudBAccountKey, or set cloudBAuthMode: "shared"',
        },
      ],
    ],
    [
      "a client id with shared authentication",
      {
        name: "b",
        interval: 60,
        pathPrefix: "p/",
        storageType: "cloudB-blob",
        cloudBContainerName: "c",
        cloudBAuthMode: "shared",
        cloudBClientId: "id",
      },
      [
        {
          property: "cloudBClientId",
          reason:
            'is used for "managed" authentication, and cloudBAuthMode is "shared" (the service would ignore it): remove cloudBClientId, or set cloudBAuthMode: "managed"',
        },
      ],
    ],
    ["negative retain", { ...local, retain: -1 }, [{ property: "retain", reason: "must be at least 1" }]],
    ...[".", ".."].map((name): [string, Record<string, unknown>, { property: string; reason: string }[]] => [
      `name ${name}, a dot segment`,
      { ...local, name },
      [{ property: "name", reason: 'must not be "." or "..": as a path segment they mean "here" and "the parent", not a name' }],
    ]),
    ...[9_223_372_037, "9223372037", "2562048h", 1e21].map((interval): [string, Record<string, unknown>, { property: string; reason: string }[]] => [
      `interval ${JSON.stringify(interval)}, beyond what the service holds`,
      { ...local, interval },
      [
        {
          property: "interval",
          reason: `is longer than the service can hold (at most 9223372036 seconds, about 292 years), got ${JSON.stringify(interval)}`,
        },
      ],
    ]),
    [
      "bad interval",
      { ...local, interval: "1 fortnight" },
      [{ property: "interval", reason: '"1 fortnight" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"' }],
    ],
    ["fractional interval", { ...local, interval: "1.5s" }, [{ property: "interval", reason: '"1.5s" is not a whole number of seconds (1.5s)' }]],
    [
      "unknown storage type",
      { ...local, storageType: "tape" },
      [{ property: "storageType", reason: 'must be one of "local", "cloudA-s3", "cloudB-blob", "cloudC-gcs", got "tape"' }],
    ],
    [
      "name with a slash",
      { ...local, name: "a/b" },
      [{ property: "name", reason: "must be a single path segment: no '/', whitespace, '?', '#' or '%'" }],
    ],
    ["misspelt argument", { ...local, retian: 3 }, [{ property: "retian", reason: "is not an argument of SnapshotAutoConfig" }]],
    ["wrong kind", { ...local, adopt: "yes" }, [{ property: "adopt", reason: "must be true or false" }]],
    [
      "auth mode",
      { name: "b", interval: 60, pathPrefix: "p/", storageType: "cloudB-blob", cloudBContainerName: "c", cloudBAuthMode: "magic" },
      [{ property: "cloudBAuthMode", reason: 'must be one of "shared", "managed", got "magic"' }],
    ],
  ])("%s", (_label, input, failures) => {
    const result = checkSnapshotAutoConfig(input);
    expect(result.failures).toEqual(failures);
    expect(result.inputs).toBe(input);
  });

  test("unknown values skip the rules that depend on them", () => {
    const r = checkSnapshotAutoConfig({
      name: "b",
      interval: UNKNOWN,
      pathPrefix: UNKNOWN,
      storageType: "cloudB-blob",
      cloudBContainerName: UNKNOWN,
    });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ interval: UNKNOWN, pathPrefix: UNKNOWN, cloudBContainerName: UNKNOWN, retain: 1 });
  });

  test("settings the service would ignore are checked only once the setting they depend on is known", () => {
    const blob = { name: "b", interval: 60, pathPrefix: "p/", storageType: "cloudB-blob", cloudBContainerName: "c" };
    expect(checkSnapshotAutoConfig({ ...blob, cloudBAuthMode: UNKNOWN, cloudBAccountKey: "k", cloudBClientId: "id" }).failures).toEqual([]);
    const s3 = { name: "s", interval: 60, pathPrefix: "p", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };
    expect(checkSnapshotAutoConfig({ ...s3, cloudAS3EnableKms: UNKNOWN, cloudAS3KmsKey: "alias/k" }).failures).toEqual([]);
    expect(checkSnapshotAutoConfig({ ...s3, cloudAS3EnableKms: true, cloudAS3KmsKey: "alias/k" }).failures).toEqual([]);
    // Without an auth mode the service's own default applies: both are taken.
    expect(checkSnapshotAutoConfig({ ...blob, cloudBAccountKey: "k", cloudBClientId: "id" }).failures).toEqual([]);
  });

  test("a setting the service ignores, held so already (an adopted, imported or migrated configuration), passes; set or changed so, it is refused", () => {
    const s3 = { name: "s", interval: 60, pathPrefix: "p", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" };
    const heldKey = { ...s3, cloudAS3KmsKey: "alias/k" };
    expect(checkSnapshotAutoConfig(heldKey, {}, heldKey).failures).toEqual([]);
    expect(checkSnapshotAutoConfig({ ...heldKey, cloudAS3KmsKey: "alias/other" }, {}, heldKey).failures.map((f) => f.property)).toEqual([
      "cloudAS3KmsKey",
    ]);
    // KMS turned off by the program: the key it held is now one the service would ignore.
    const withKms = { ...heldKey, cloudAS3EnableKms: true };
    expect(checkSnapshotAutoConfig(heldKey, {}, withKms).failures.map((f) => f.property)).toEqual(["cloudAS3KmsKey"]);
    const blob = { name: "b", interval: 60, pathPrefix: "p/", storageType: "cloudB-blob", cloudBContainerName: "c", cloudBAuthMode: "managed" };
    const heldAccountKey = { ...blob, cloudBAccountKey: "k" };
    expect(checkSnapshotAutoConfig(heldAccountKey, {}, heldAccountKey).failures).toEqual([]);
    expect(checkSnapshotAutoConfig(heldAccountKey, {}, blob).failures.map((f) => f.property)).toEqual(["cloudBAccountKey"]);
  });

  test("the name defaults to the resource's name on create, and to the name the resource has after (an import)", () => {
    const args = { interval: 60, pathPrefix: "/p", storageType: "local", localMaxSpace: 1 };
    expect(checkSnapshotAutoConfig(args, { resourceName: "nightly-config" }).inputs.name).toBe("nightly-config");
    expect(checkSnapshotAutoConfig(args, { resourceName: "nightly-config" }, { ...args, name: "nightly" }).inputs.name).toBe("nightly");
    expect(checkSnapshotAutoConfig({ ...args, name: "other" }, { resourceName: "x" }, { name: "nightly" }).inputs.name).toBe("other");
  });

  test("an unknown storage type skips per-type rules", () => {
    const r = checkSnapshotAutoConfig({ name: "x", interval: 60, pathPrefix: "p", storageType: UNKNOWN, cloudAS3Bucket: "b" });
    expect(r.failures).toEqual([]);
  });
});
