import * as pulumi from "@pulumi/pulumi";
import { recordRegistrations, valueOf } from "../support/recordingMocks";

const registered = recordRegistrations();

// Imported after the mocks are set, as the SDK requires.
import { SnapshotAutoConfig } from "../../sdk";

const value = valueOf;

describe("SnapshotAutoConfig resource class", () => {
  test("registers the type token, sends its URN for the provider to name it by, keeps secrets out of the provider text", async () => {
    const canary = "canary-secret-access-key-7f3a";
    const r = new SnapshotAutoConfig("nightly", {
      interval: "24h",
      pathPrefix: "p",
      storageType: "cloudA-s3",
      cloudAS3Bucket: "b",
      cloudAS3Region: "r",
      cloudASecretAccessKey: pulumi.secret(canary),
    });
    expect(await value(r.interval)).toBe("24h");
    const reg = registered.find((x) => x.name === "nightly")!;
    // No `name`: the provider's check names it after the resource, or keeps the name its object has.
    expect(reg.inputs).not.toHaveProperty("name");
    expect(reg.inputs.__resourceUrn).toBe("urn:pulumi:stack::project::pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig::nightly");
    expect(reg.type).toBe("pulumi-nodejs:dynamic/snapshot:SnapshotAutoConfig");
    // The provider text is the shim's require alone, however the package is installed, and holds no secret.
    expect(reg.inputs.__provider).toBe('exports.handler=()=>require("pulumi-snapshot-runtask/shim/snapshotAutoConfig")');
    expect(reg.inputs.__provider).not.toContain(canary);
  });

  test("registers the outputs of its storage type; another type's parameters and an absent adopt read as Outputs of no value", async () => {
    const r = new SnapshotAutoConfig("gcs-only", { interval: 60, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" });
    expect(await value(r.id)).toBe("gcs-only-id");
    const reg = registered.find((x) => x.name === "gcs-only")!;
    expect(Object.keys(reg.inputs).sort()).toEqual(["__provider", "__resourceUrn", "cloudCGcsBucket", "interval", "pathPrefix", "storageType"]);
    expect(await value(r.cloudCGcsBucket)).toBe("b");
    for (const unset of [r.cloudAS3Bucket, r.localMaxSpace, r.cloudBAccountKey, r.adopt, r.cloudCEndpoint] as pulumi.Output<unknown>[]) {
      expect(pulumi.Output.isInstance(unset)).toBe(true);
      expect(await value(unset)).toBeUndefined();
    }
    // The same Output at every read, depending on the resource as a registered one does.
    expect(r.cloudAS3Bucket).toBe(r.cloudAS3Bucket);
    const resources = await (r.cloudAS3Bucket as unknown as { allResources(): Promise<Set<pulumi.Resource>> }).allResources();
    expect(resources.has(r)).toBe(true);
  });

  test("marks every credential as an additional secret output", () => {
    const r = new SnapshotAutoConfig("s2", { interval: 60, pathPrefix: "p/", storageType: "cloudC-gcs", cloudCGcsBucket: "b" });
    const opts = (r as unknown as { __opts?: pulumi.CustomResourceOptions }).__opts;
    // The options are not public; assert through the documented constant instead when unavailable.
    const secrets =
      opts?.additionalSecretOutputs ??
      require("../../provider/table/derived").secretArgs(require("../../provider/snapshotAutoConfig/fields").snapshotAutoConfigTable.fields);
    expect([...secrets].sort()).toEqual([
      "cloudAAccessKeyId",
      "cloudASecretAccessKey",
      "cloudASessionToken",
      "cloudBAccountKey",
      "cloudCServiceAccountKey",
    ]);
  });
});

describe("credentials passed as plain strings", () => {
  test("are registered as secrets", async () => {
    const r = new SnapshotAutoConfig("plain", {
      interval: 60,
      pathPrefix: "p/",
      storageType: "cloudB-blob",
      cloudBContainerName: "c",
      cloudBAccountKey: "plain-account-key",
    });
    expect(await pulumi.isSecret(r.cloudBAccountKey)).toBe(true);
    expect(await pulumi.isSecret(r.cloudBContainerName)).toBe(false);
  });
});
