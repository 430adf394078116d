import { checkSnapshotAutoConfig } from "../../provider/snapshotAutoConfig/fields";
import { typeCheck } from "../support/typeCheck";

/**
 * A storage type's required parameters are required by the compiler where the type is written in the program,
 * and another type's parameters refused; a type known only at run time (an Output) leaves them to the preview's
 * check, which untyped callers (JavaScript, `any`) meet as before.
 */
const consumers: Record<string, string> = {
  missingLocal: '{ interval: "24h", pathPrefix: "/var/snapshots", storageType: "local" }',
  missingRegion: '{ interval: 60, pathPrefix: "p", storageType: "cloudA-s3", cloudAS3Bucket: "b" }',
  missingContainer: '{ interval: 60, pathPrefix: "p/", storageType: "cloudB-blob" }',
  missingBucket: '{ interval: 60, pathPrefix: "p/", storageType: "cloudC-gcs" }',
  otherType: '{ interval: 60, pathPrefix: "/p", storageType: "local", localMaxSpace: 1, cloudAS3Bucket: "b" }',
  otherTypeOutput: '{ interval: 60, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b", localMaxSpace: pulumi.output(1) }',
  local: '{ interval: "24h", pathPrefix: "/var/snapshots", storageType: "local", localMaxSpace: 1e9 }',
  cloudA: '{ interval: 60, pathPrefix: "p", storageType: "cloudA-s3", cloudAS3Bucket: "b", cloudAS3Region: pulumi.output("r") }',
  atRunTime: '{ interval: 60, pathPrefix: "p", storageType: pulumi.output(new pulumi.Config().require("storageType") as "local" | "cloudA-s3") }',
};

/** Each consumer's diagnostics, by its name. */
let diagnostics: Record<string, string[]>;

beforeAll(() => {
  const blocks = Object.entries(consumers).map(([name, args]) => ({
    source: name,
    line: 0,
    code: `import * as pulumi from "@pulumi/pulumi";\nimport { SnapshotAutoConfig } from "pulumi-snapshot-runtask";\nnew SnapshotAutoConfig("s", ${args});`,
  }));
  const all = typeCheck(blocks);
  diagnostics = Object.fromEntries(Object.keys(consumers).map((name) => [name, all.filter((d) => d.startsWith(`${name}:`))]));
  expect(all.filter((d) => !Object.keys(consumers).some((name) => d.startsWith(`${name}:`)))).toEqual([]);
}, 120_000);

test("a consumer that leaves out a storage type's required parameter does not compile", () => {
  expect(diagnostics.missingLocal).toEqual([
    "missingLocal:3: Argument of type '{ interval: string; pathPrefix: string; storageType: \"local\"; }' is not assignable to parameter of type 'SnapshotAutoConfigArgs'.\n" +
      "  Property 'localMaxSpace' is missing in type '{ interval: string; pathPrefix: string; storageType: \"local\"; }' but required in type 'LocalSnapshotAutoConfigArgs'.",
  ]);
});

test("each storage type's own required parameters; another type's parameters refused, the message naming their storage type", () => {
  const last = (name: string) => diagnostics[name].map((e) => e.split("\n").at(-1)?.trim());
  expect(last("missingRegion")).toEqual([expect.stringContaining("Property 'cloudAS3Region' is missing")]);
  expect(last("missingContainer")).toEqual([expect.stringContaining("Property 'cloudBContainerName' is missing")]);
  expect(last("missingBucket")).toEqual([expect.stringContaining("Property 'cloudCGcsBucket' is missing")]);
  expect(diagnostics.otherType.join("\n")).toContain(
    "Types of property 'cloudAS3Bucket' are incompatible.\n    Type 'string' is not assignable to type 'OnlyWithStorageType<\"cloudA-s3\">'.",
  );
  expect(diagnostics.otherTypeOutput.join("\n")).toMatch(
    /Types of property 'localMaxSpace' are incompatible\.\n.* type 'OnlyWithStorageType<"local">'\.$/,
  );
  expect(Object.values(diagnostics).flat().join("\n")).not.toContain("'never'");
});

test("complete arguments compile, and a storage type known only at run time leaves its parameters to the preview", () => {
  expect([...diagnostics.local, ...diagnostics.cloudA, ...diagnostics.atRunTime]).toEqual([]);
});

test("the preview's check still refuses what an untyped caller leaves out", () => {
  const untyped: Record<string, unknown> = { name: "s", interval: "24h", pathPrefix: "/var/snapshots", storageType: "local" };
  expect(checkSnapshotAutoConfig(untyped).failures).toEqual([{ property: "localMaxSpace", reason: 'is required when storageType is "local"' }]);
});
