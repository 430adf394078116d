import { providers } from "../../provider";

/** The mistakes users make, and the exact message each one gets. */
describe.each<[string, keyof typeof providers, Record<string, unknown>, string, string]>([
  [
    "hyphenated stage",
    "workspaceRunTask",
    { workspaceId: "ws-1", taskId: "task-1", enforcementLevel: "advisory", stages: ["pre-apply"] },
    "stages[0]",
    '"pre-apply" is not a stage: did you mean "pre_apply"? (stages use underscores)',
  ],
  [
    "interval in fortnights",
    "snapshotAutoConfig",
    { name: "a", interval: "1 fortnight", pathPrefix: "/s", storageType: "local", localMaxSpace: 1 },
    "interval",
    '"1 fortnight" is not a duration: use whole seconds (86400) or a duration such as "24h", "90m" or "1h30m"',
  ],
  [
    "fractional interval",
    "snapshotAutoConfig",
    { name: "a", interval: "1.5s", pathPrefix: "/s", storageType: "local", localMaxSpace: 1 },
    "interval",
    '"1.5s" is not a whole number of seconds (1.5s)',
  ],
  [
    "negative retain",
    "snapshotAutoConfig",
    { name: "a", interval: 60, retain: -3, pathPrefix: "/s", storageType: "local", localMaxSpace: 1 },
    "retain",
    "must be at least 1",
  ],
  [
    "blob prefix without /",
    "snapshotAutoConfig",
    { name: "a", interval: 60, pathPrefix: "snapshots", storageType: "cloudB-blob", cloudBContainerName: "c" },
    "pathPrefix",
    'must end with "/" for storage type "cloudB-blob" (got "snapshots")',
  ],
  [
    "description of 301 characters",
    "runTask",
    { organization: "o", name: "t", url: "https://h.example", description: "d".repeat(301) },
    "description",
    "must be at most 300 characters (got 301)",
  ],
  [
    "KMS with SSE",
    "snapshotAutoConfig",
    {
      name: "a",
      interval: 60,
      pathPrefix: "p",
      storageType: "cloudA-s3",
      cloudAS3Bucket: "b",
      cloudAS3Region: "r",
      cloudAS3EnableKms: true,
      cloudAS3ServerSideEncryption: true,
    },
    "cloudAS3EnableKms",
    "cannot be combined with cloudAS3ServerSideEncryption: choose KMS encryption or AES256 server-side encryption",
  ],
])("%s", (_label, kind, news, property, reason) => {
  test("names the argument and says why", async () => {
    expect((await providers[kind].check({}, news)).failures).toEqual([{ property, reason }]);
  });
});
