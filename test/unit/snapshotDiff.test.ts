import { checkSnapshotAutoConfig, diffSnapshotAutoConfig } from "../../provider/snapshotAutoConfig/fields";
import { UNKNOWN } from "../../provider/common/unknown";

const stored = {
  __provider: "old text",
  name: "daily",
  interval: 86400,
  retain: 1,
  filePrefix: "service-snapshot",
  pathPrefix: "/s",
  storageType: "local",
  localMaxSpace: 1000,
};
const checked = (news: Record<string, unknown>) => {
  const r = checkSnapshotAutoConfig({ __provider: "new text", ...news });
  expect(r.failures).toEqual([]);
  return r.inputs;
};
const program = { name: "daily", interval: "24h", pathPrefix: "/s", storageType: "local", localMaxSpace: 1000 };

describe("diffSnapshotAutoConfig", () => {
  test("no change for 24h against 86400, omitted retain and filePrefix, or new provider text", () => {
    expect(diffSnapshotAutoConfig(stored, checked(program))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true });
  });

  test("what the state keeps of the service's ways (__hiddenCredentials) is not compared", () => {
    expect(diffSnapshotAutoConfig({ ...stored, __hiddenCredentials: [] }, checked(program)).changes).toBe(false);
  });

  test("adopt is not a change", () => {
    expect(diffSnapshotAutoConfig(stored, checked({ ...program, adopt: true })).changes).toBe(false);
  });

  test("an old state without defaults does not diff", () => {
    const { retain: _r, filePrefix: _f, ...old } = stored;
    expect(diffSnapshotAutoConfig({ ...old, interval: "24h" }, checked(program)).changes).toBe(false);
  });

  // A replacement (the resource's replaceOnChanges) that keeps the name deletes the old configuration first.
  test.each<[string, Record<string, unknown>, string[], boolean]>([
    ["interval", { interval: "12h" }, [], true],
    ["retain", { retain: 3 }, [], true],
    ["filePrefix", { filePrefix: "x" }, [], true],
    ["localMaxSpace", { localMaxSpace: 2000 }, [], true],
    ["name", { name: "weekly" }, ["name"], false],
  ])("%s change", (_l, change, replaces, deleteBeforeReplace) => {
    expect(diffSnapshotAutoConfig(stored, checked({ ...program, ...change }))).toEqual({ changes: true, replaces, deleteBeforeReplace });
  });

  test("secret fields are compared by value", () => {
    const s3 = {
      name: "s",
      interval: 60,
      pathPrefix: "p",
      storageType: "cloudA-s3",
      cloudAS3Bucket: "b",
      cloudAS3Region: "r",
      cloudASecretAccessKey: "k1",
    };
    const old = { ...checked(s3) };
    expect(diffSnapshotAutoConfig(old, checked(s3)).changes).toBe(false);
    expect(diffSnapshotAutoConfig(old, checked({ ...s3, cloudASecretAccessKey: "k2" })).changes).toBe(true);
  });

  test("unknown values are changes; an unknown name is a replacement that may make another configuration", () => {
    expect(diffSnapshotAutoConfig(stored, checked({ ...program, interval: UNKNOWN }))).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: true,
    });
    expect(diffSnapshotAutoConfig(stored, checked({ ...program, name: UNKNOWN }))).toMatchObject({ replaces: ["name"], deleteBeforeReplace: false });
  });

  test("removing an optional field is a change", () => {
    const withKey = { ...stored, storageType: "cloudA-s3", localMaxSpace: undefined, cloudAS3Bucket: "b", cloudAS3Region: "r", cloudAS3KmsKey: "k" };
    const news = checked({ name: "daily", interval: 86400, pathPrefix: "/s", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: "r" });
    expect(diffSnapshotAutoConfig(withKey, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
  });
});
