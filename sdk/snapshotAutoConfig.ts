import * as pulumi from "@pulumi/pulumi";
import { snapshotAutoConfigTable } from "../provider/snapshotAutoConfig/fields";
import { STORAGE_TYPES, type StorageType } from "../provider/snapshotAutoConfig/storageTypes";
import { outputKeys, secretArgs } from "../provider/table/derived";
import type { FieldTable } from "../provider/table/field";
import { assertType, type GroupArgName, type RequiredGroupArgName, type Same } from "../provider/table/types";
import { dynamicProps, dynamicType, resourceUrn, unregisteredOutputs } from "./dynamicResource";
import { leavePromiseStacksUnformatted } from "./promiseStacks";
import { warnOfPlainProxyPasswords } from "./plainSettings";
import type { ArgsMatchTable, OutputsMatchTable } from "./tableCheck";

export type { StorageType };

/**
 * Arguments of every `SnapshotAutoConfig`, whatever its storage type: the spec's fields, camelCased. A storage
 * type's parameters are in the interface of that type; `SnapshotAutoConfigArgs` joins them.
 */
export interface SnapshotAutoConfigCommonArgs {
  /** Configuration name (a path segment). Default: the resource name. Changing it replaces the configuration. */
  name?: pulumi.Input<string>;
  /** Time between snapshots: integer seconds, or a duration string such as `"24h"`, `"90m"`, `"1h30m"`. */
  interval: pulumi.Input<number | string>;
  /** Number of snapshots kept. Default 1. */
  retain?: pulumi.Input<number>;
  /** Directory (`local`) or bucket prefix (cloud types); `cloudB-blob` and `cloudC-gcs` need a trailing `/`. */
  pathPrefix: pulumi.Input<string>;
  /** Snapshot names start with this. Default `service-snapshot`. */
  filePrefix?: pulumi.Input<string>;
  /** Where snapshots go: `local`, `cloudA-s3`, `cloudB-blob` or `cloudC-gcs`; selects the parameters below. */
  storageType: pulumi.Input<StorageType>;
  /** Take over an existing configuration of the same name instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/** The parameters of `local` storage. */
export interface LocalStorageParameters {
  /** `local`: maximum bytes for all snapshots with this file prefix (required). */
  localMaxSpace: pulumi.Input<number>;
}

/** The parameters of `cloudA-s3` storage. */
export interface CloudAS3StorageParameters {
  /** `cloudA-s3`: bucket (required). */
  cloudAS3Bucket: pulumi.Input<string>;
  /** `cloudA-s3`: region of the bucket (required). */
  cloudAS3Region: pulumi.Input<string>;
  /** `cloudA-s3`: access key id (secret). Without it, the service's own cloud credentials are used. */
  cloudAAccessKeyId?: pulumi.Input<string>;
  /** `cloudA-s3`: secret access key (secret). */
  cloudASecretAccessKey?: pulumi.Input<string>;
  /** `cloudA-s3`: session token (secret). */
  cloudASessionToken?: pulumi.Input<string>;
  /** `cloudA-s3`: endpoint, for an S3-compatible implementation other than the provider's. */
  cloudAS3Endpoint?: pulumi.Input<string>;
  /** `cloudA-s3`: disables TLS to the endpoint (testing only). */
  cloudAS3DisableTls?: pulumi.Input<boolean>;
  /** `cloudA-s3`: `endpoint/bucket` URLs instead of `bucket.endpoint`. */
  cloudAS3ForcePathStyle?: pulumi.Input<boolean>;
  /** `cloudA-s3`: encrypt with a key-management service. Cannot be combined with `cloudAS3ServerSideEncryption`. */
  cloudAS3EnableKms?: pulumi.Input<boolean>;
  /** `cloudA-s3`: encrypt with AES256 server-side encryption. */
  cloudAS3ServerSideEncryption?: pulumi.Input<boolean>;
  /** `cloudA-s3`: the named key used when `cloudAS3EnableKms` is true. */
  cloudAS3KmsKey?: pulumi.Input<string>;
}

/** The parameters of `cloudC-gcs` storage. */
export interface CloudCGcsStorageParameters {
  /** `cloudC-gcs`: bucket (required). */
  cloudCGcsBucket: pulumi.Input<string>;
  /** `cloudC-gcs`: service account key, a JSON document in a string (secret). */
  cloudCServiceAccountKey?: pulumi.Input<string>;
  /** `cloudC-gcs`: endpoint, for an implementation other than the provider's. */
  cloudCEndpoint?: pulumi.Input<string>;
  /** `cloudC-gcs`: disables TLS to the endpoint (testing only). */
  cloudCDisableTls?: pulumi.Input<boolean>;
}

/** The parameters of `cloudB-blob` storage. */
export interface CloudBBlobStorageParameters {
  /** `cloudB-blob`: container (required). */
  cloudBContainerName: pulumi.Input<string>;
  /** `cloudB-blob`: account name. */
  cloudBAccountName?: pulumi.Input<string>;
  /** `cloudB-blob`: `shared` or `managed` authentication. */
  cloudBAuthMode?: pulumi.Input<"shared" | "managed">;
  /** `cloudB-blob`: account key for `shared` authentication (secret). */
  cloudBAccountKey?: pulumi.Input<string>;
  /** `cloudB-blob`: client id for `managed` authentication. */
  cloudBClientId?: pulumi.Input<string>;
  /** `cloudB-blob`: blob environment. */
  cloudBBlobEnvironment?: pulumi.Input<string>;
  /** `cloudB-blob`: blob storage endpoint, for an implementation other than the provider's. */
  cloudBEndpoint?: pulumi.Input<string>;
}

/**
 * The type of another storage type's parameter in the arguments of one storage type: no value fits it, and the
 * compiler's message names the storage type the parameter belongs to (`Type 'string' is not assignable to type
 * 'OnlyWithStorageType<"cloudA-s3">'`).
 */
export type OnlyWithStorageType<S extends StorageType> = { readonly [K in `only with storageType "${S}"`]: never };

/** The parameters of storage type `S`, refused in another type's arguments. */
type Refused<P, S extends StorageType> = { [K in keyof P]?: OnlyWithStorageType<S> };

/** A `local` configuration: `localMaxSpace` required, no cloud parameter. */
export interface LocalSnapshotAutoConfigArgs
  extends
    SnapshotAutoConfigCommonArgs,
    LocalStorageParameters,
    Refused<CloudAS3StorageParameters, "cloudA-s3">,
    Refused<CloudBBlobStorageParameters, "cloudB-blob">,
    Refused<CloudCGcsStorageParameters, "cloudC-gcs"> {
  storageType: "local";
}

/** A `cloudA-s3` configuration: bucket and region required, no other type's parameter. */
export interface CloudAS3SnapshotAutoConfigArgs
  extends
    SnapshotAutoConfigCommonArgs,
    CloudAS3StorageParameters,
    Refused<LocalStorageParameters, "local">,
    Refused<CloudBBlobStorageParameters, "cloudB-blob">,
    Refused<CloudCGcsStorageParameters, "cloudC-gcs"> {
  storageType: "cloudA-s3";
}

/** A `cloudB-blob` configuration: the container required, no other type's parameter. */
export interface CloudBBlobSnapshotAutoConfigArgs
  extends
    SnapshotAutoConfigCommonArgs,
    CloudBBlobStorageParameters,
    Refused<LocalStorageParameters, "local">,
    Refused<CloudAS3StorageParameters, "cloudA-s3">,
    Refused<CloudCGcsStorageParameters, "cloudC-gcs"> {
  storageType: "cloudB-blob";
}

/** A `cloudC-gcs` configuration: the bucket required, no other type's parameter. */
export interface CloudCGcsSnapshotAutoConfigArgs
  extends
    SnapshotAutoConfigCommonArgs,
    CloudCGcsStorageParameters,
    Refused<LocalStorageParameters, "local">,
    Refused<CloudAS3StorageParameters, "cloudA-s3">,
    Refused<CloudBBlobStorageParameters, "cloudB-blob"> {
  storageType: "cloudC-gcs";
}

/**
 * A configuration whose storage type is known only when the program runs (an Output or a promise, such as
 * `pulumi.output(config.require("storageType") as StorageType)`): every parameter is optional to the compiler, and
 * the provider checks them in the preview.
 */
export interface ComputedStorageSnapshotAutoConfigArgs
  extends
    SnapshotAutoConfigCommonArgs,
    Partial<LocalStorageParameters & CloudAS3StorageParameters & CloudBBlobStorageParameters & CloudCGcsStorageParameters> {
  storageType: pulumi.Output<StorageType> | Promise<StorageType>;
}

/**
 * Arguments of a `SnapshotAutoConfig`. The storage type selects the parameters: its required ones must be given,
 * and another type's may not, which the compiler checks where the type is written in the program (a literal such
 * as `"local"`); the provider checks the same in the preview, for a type known only at run time and for callers
 * the compiler does not see.
 */
export type SnapshotAutoConfigArgs =
  | LocalSnapshotAutoConfigArgs
  | CloudAS3SnapshotAutoConfigArgs
  | CloudBBlobSnapshotAutoConfigArgs
  | CloudCGcsSnapshotAutoConfigArgs
  | ComputedStorageSnapshotAutoConfigArgs;

type Fields = (typeof snapshotAutoConfigTable)["fields"];
/** Each storage type's parameters, and which of them it requires, as the field table says. */
type ParametersMatchTable<P, S extends StorageType> =
  Same<keyof P, GroupArgName<Fields, S>> extends true ? Same<RequiredKeys<P>, RequiredGroupArgName<Fields, S>> : false;
type RequiredKeys<P> = { [K in keyof P]-?: undefined extends P[K] ? never : K }[keyof P];

assertType<
  ArgsMatchTable<
    SnapshotAutoConfigCommonArgs & LocalStorageParameters & CloudAS3StorageParameters & CloudBBlobStorageParameters & CloudCGcsStorageParameters,
    typeof snapshotAutoConfigTable
  >
>(true);
assertType<ParametersMatchTable<LocalStorageParameters, "local">>(true);
assertType<ParametersMatchTable<CloudAS3StorageParameters, "cloudA-s3">>(true);
assertType<ParametersMatchTable<CloudBBlobStorageParameters, "cloudB-blob">>(true);
assertType<ParametersMatchTable<CloudCGcsStorageParameters, "cloudC-gcs">>(true);

const TYPE = dynamicType("snapshot", "SnapshotAutoConfig");
const FIELDS: FieldTable = snapshotAutoConfigTable.fields;
const SECRET_ARGS = secretArgs(snapshotAutoConfigTable.fields);
/**
 * The outputs registered for each storage type written in the program (keys absent from the registration never become
 * outputs): the common ones and the type's own parameters. Another type's parameters can hold no value (the check
 * refuses them, a read takes the type's alone), nor `adopt` unless the program gives it: those are left unregistered,
 * each read as an Output of no value (`unregisteredOutputs`). A type known only at run time registers every parameter.
 */
const KEYS = outputKeys(snapshotAutoConfigTable.fields).filter((k) => k !== "adopt");
const REGISTERED = new Map<unknown, string[]>(
  STORAGE_TYPES.map((type) => [type, KEYS.filter((k) => FIELDS[k].group === undefined || FIELDS[k].group === type)]),
);
const UNREGISTERED = KEYS.filter((k) => FIELDS[k].group !== undefined).concat("adopt");

/**
 * A named automated snapshot configuration of the storage service. The resource id is the configuration name.
 * Credentials come from stack config `snapshot:address`/`snapshot:token` or `SERVICE_ADDR`/`SERVICE_TOKEN`.
 */
export class SnapshotAutoConfig extends pulumi.CustomResource {
  declare readonly name: pulumi.Output<string>;
  /** Seconds between snapshots, whatever form the argument had. */
  declare readonly interval: pulumi.Output<number>;
  declare readonly retain: pulumi.Output<number>;
  declare readonly pathPrefix: pulumi.Output<string>;
  declare readonly filePrefix: pulumi.Output<string>;
  declare readonly storageType: pulumi.Output<StorageType>;
  declare readonly localMaxSpace: pulumi.Output<number | undefined>;
  declare readonly cloudAS3Bucket: pulumi.Output<string | undefined>;
  declare readonly cloudAS3Region: pulumi.Output<string | undefined>;
  declare readonly cloudAAccessKeyId: pulumi.Output<string | undefined>;
  declare readonly cloudASecretAccessKey: pulumi.Output<string | undefined>;
  declare readonly cloudASessionToken: pulumi.Output<string | undefined>;
  declare readonly cloudAS3Endpoint: pulumi.Output<string | undefined>;
  declare readonly cloudAS3DisableTls: pulumi.Output<boolean | undefined>;
  declare readonly cloudAS3ForcePathStyle: pulumi.Output<boolean | undefined>;
  declare readonly cloudAS3EnableKms: pulumi.Output<boolean | undefined>;
  declare readonly cloudAS3ServerSideEncryption: pulumi.Output<boolean | undefined>;
  declare readonly cloudAS3KmsKey: pulumi.Output<string | undefined>;
  declare readonly cloudCGcsBucket: pulumi.Output<string | undefined>;
  declare readonly cloudCServiceAccountKey: pulumi.Output<string | undefined>;
  declare readonly cloudCEndpoint: pulumi.Output<string | undefined>;
  declare readonly cloudCDisableTls: pulumi.Output<boolean | undefined>;
  declare readonly cloudBContainerName: pulumi.Output<string | undefined>;
  declare readonly cloudBAccountName: pulumi.Output<string | undefined>;
  declare readonly cloudBAuthMode: pulumi.Output<"shared" | "managed" | undefined>;
  declare readonly cloudBAccountKey: pulumi.Output<string | undefined>;
  declare readonly cloudBClientId: pulumi.Output<string | undefined>;
  declare readonly cloudBBlobEnvironment: pulumi.Output<string | undefined>;
  declare readonly cloudBEndpoint: pulumi.Output<string | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: SnapshotAutoConfigArgs, opts?: pulumi.CustomResourceOptions) {
    warnOfPlainProxyPasswords();
    const outputs = REGISTERED.get(args.storageType) ?? KEYS;
    // Without `name`, the provider names the object after the resource, or keeps the name it has (dynamicResources.ts).
    const props = dynamicProps(
      "snapshotAutoConfig",
      args.adopt === undefined ? outputs : [...outputs, "adopt"],
      args,
      resourceUrn(TYPE, name, opts?.parent),
    );
    // Credentials are secret in the stored inputs too, not only in the outputs, even when passed as plain strings.
    // Every credential stays an additional secret output, of any storage type: after a failed switch of the type, the
    // state records the configuration written back, which holds the old type's.
    for (const key of SECRET_ARGS) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
    const done = leavePromiseStacksUnformatted();
    try {
      super(TYPE, name, props, { ...opts, additionalSecretOutputs: [...SECRET_ARGS, ...(opts?.additionalSecretOutputs ?? [])] });
    } finally {
      done();
    }
  }
}

unregisteredOutputs(SnapshotAutoConfig.prototype, UNREGISTERED);

assertType<OutputsMatchTable<SnapshotAutoConfig, typeof snapshotAutoConfigTable>>(true);
