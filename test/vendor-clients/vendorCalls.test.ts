import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { runVendorClients, type Report } from "./support/vendorClients";

/**
 * The services' vendors' own Go clients against the emulator: every run task and association call of go-tfe
 * (v1.111.2), and every call Vault's Go client (`github.com/hashicorp/vault/api` v1.23.0) makes of the automated
 * snapshot endpoints, each answer checked by the program of `driver/` (each check a statement it prints with whether
 * it held). Twice: on the emulator's defaults, as the real services answer, where every call passes; and on its
 * `letterOfSpec`, the specs' letter, where the calls that letter breaks fail as the clients fail against it (go-tfe
 * cannot decode the associate call's 204, and gets `ErrResourceNotFound` for a wrong token; Vault's client's PUT and
 * `GET ?list=true` are 405), and the rest pass. The snapshot service speaks the vendor's names (`vendorNames`) both
 * times, and what the clients wrote is checked in what the emulator holds: the HMAC keys, which no answer shows, and the
 * configurations, stored in the spec's names.
 */
jest.setTimeout(300_000);

/** The calls the issue names, by the statements of the program's checks, for each reading. */
const RUN_TASK_CALLS = {
  both: [
    "NewClient reads the service's API version from its ping",
    "RunTasks.Create with a description, an HMAC key, enabled false and global settings",
    "its answer carries every attribute as sent, the key as null",
    "RunTasks.Create with the required attributes alone",
    "its answer carries the defaults: enabled, no description, global settings off",
    "RunTasks.List followed through its pages gives every task once, in the order made",
    "its pagination: pages 1 to 3, 5 tasks",
    "the association: advisory, the stage post_plan by default",
    "the stage given is its stages",
    "the stages in the order sent, the stage their first",
    "WorkspaceRunTasks.List followed through its pages gives both associations of the workspace",
    "it reads as made, its task and workspace named",
    "the associations included, with their enforcement levels",
    "their workspaces included, with their names",
    "RunTasks.ReadWithOptions with an include the service does not take: ErrInvalidIncludeValue",
    "its first task's associations are included",
    "every other attribute kept",
    "every other attribute kept, the global enforcement level included",
    "every other attribute kept, the key as null",
    "its stages kept",
    "its enforcement level kept",
    "RunTasks.Read of a task that does not exist: ErrResourceNotFound",
    "WorkspaceRunTasks.List of a workspace that does not exist: ErrResourceNotFound",
    "RunTasks.Create with a name the service refuses: its 422, as go-tfe words it",
    "RunTasks.Create of a name taken: its 422",
    "WorkspaceRunTasks.Update with a stage an update does not take: its 422",
    "the association is gone: ErrResourceNotFound",
    "the task is gone: ErrResourceNotFound",
    "its association went with it: ErrResourceNotFound",
  ],
  service: [
    "RunTasks.AttachToWorkspace",
    "WorkspaceRunTasks.Create with the deprecated stage",
    "WorkspaceRunTasks.Create with stages",
    "a call with a wrong token: ErrUnauthorized",
  ],
  letter: [
    "RunTasks.AttachToWorkspace fails with EOF: the spec's 204 has no document to decode",
    "RunTasks.AttachToWorkspace made the association all the same: the workspace's list shows it",
    "WorkspaceRunTasks.Create with the deprecated stage fails with EOF: the spec's 204 has no document to decode",
    "WorkspaceRunTasks.Create with stages fails with EOF: the spec's 204 has no document to decode",
    "a call with a wrong token: ErrResourceNotFound (the spec's 404), not ErrUnauthorized",
  ],
};

const SNAPSHOT_CALLS = {
  both: [
    "local-daily reads back every field as written, the interval in seconds, the defaults filled in",
    "s3-keys reads back every field as written, the interval in seconds, the defaults filled in",
    "s3-chain reads back every field as written, the interval in seconds, the defaults filled in",
    "blob-shared reads back every field as written, the interval in seconds, the defaults filled in",
    "blob-managed reads back every field as written, the interval in seconds, the defaults filled in",
    "gcs-key reads back every field as written, the interval in seconds, the defaults filled in",
    "gcs-chain reads back every field as written, the interval in seconds, the defaults filled in",
    "the list gives every name, sorted",
    "the write replaced it: what it left out is gone",
    "Logical().Read of its status shows a snapshot taken within 20 s",
    "the status names the snapshot file, file://<path_prefix>/go-client-<n>.snap, and it is there",
    "its times are RFC 3339 with an offset, and its error empty",
    "Logical().Read from team-a finds nothing (the client reads that 404 as no secret)",
    "a write without path_prefix: 400, the service's message",
    "a write of aws-s3 without its bucket: 400 naming aws_s3_bucket",
    "a write with a field in the spec's neutral names: 400, unknown to the vendor's",
    'a write of azure-blob whose path_prefix has no trailing "/": 400',
    "a call with a wrong token: 403 permission denied",
    "Logical().Read of a configuration not there finds nothing, with no error",
    "the configuration is gone: its read finds nothing",
    "the list no longer names it",
    "a second Logical().Delete: 404 with an empty error list, the service's answer for a name it does not hold",
  ],
  service: [
    "Logical().Write of a local configuration, its interval a duration, retain and file_prefix left to their defaults",
    "Logical().Write of an aws-s3 configuration with every credential and setting, its interval in seconds",
    "Logical().Write of an aws-s3 configuration without credentials (the default credential chain)",
    "Logical().Write of an azure-blob configuration with an account key (shared)",
    "Logical().Write of an azure-blob configuration with a client id (managed)",
    "Logical().Write of a google-gcs configuration with a service account key",
    "Logical().Write of a google-gcs configuration without credentials",
    "Logical().Write from the namespace team-a: 404 unsupported path, the endpoints being the root namespace's alone",
  ],
  letter: [
    "Logical().Write (a PUT) is refused: 405, as the spec lists POST alone",
    "Logical().List (a GET ?list=true) is refused: 405, as the spec lists with LIST alone",
    "a POST of a local configuration, its interval a duration, retain and file_prefix left to their defaults",
    "a write from the namespace team-a: 404 unsupported path, the endpoints being the root namespace's alone",
  ],
};

/** How many checks each run makes: a run cut short has fewer. */
const COUNTS = { runTask: { service: 62, letter: 67 }, snapshot: { service: 46, letter: 48 } };

describe.each(["service", "letter"] as const)("the vendors' clients against the emulator answering as the %s", (reading) => {
  let emulator: Emulator;
  let snapshotDir: string;
  let workspaces: string[];

  beforeAll(async () => {
    snapshotDir = mkdtempSync(join(tmpdir(), "vendor-clients-"));
    emulator = await startEmulator({ letterOfSpec: reading === "letter", snapshot: { vendorNames: true } });
    workspaces = emulator.runTask.workspaces("emulator-org").map((w) => w.id);
  });

  afterAll(async () => {
    await emulator?.close();
    rmSync(snapshotDir, { recursive: true, force: true });
  });

  const failed = (report: Report) => report.checks.filter((c) => !c.ok);
  const names = (report: Report) => report.checks.map((c) => c.name);

  test("go-tfe: every run task and association call", async () => {
    const report = await runVendorClients<Report>("runtask-calls", { emulator, organization: "emulator-org", workspaces, reading });
    expect(failed(report)).toEqual([]);
    expect(names(report)).toEqual(expect.arrayContaining([...RUN_TASK_CALLS.both, ...RUN_TASK_CALLS[reading]]));
    expect(report.checks).toHaveLength(COUNTS.runTask[reading]);
    // The keys, which no answer shows, as the service holds them: given at create, kept through the updates that
    // leave them out, replaced by the one that sends one.
    const keys = Object.fromEntries(emulator.runTask.tasks().map((t) => [t.id, t.hmacKey]));
    expect([keys[report.made!["task:scanner"]], keys[report.made!["task:minimal"]]]).toEqual(["gotfe-hmac-key", "gotfe-rotated-key"]);
  });

  test("Vault's client: every call of the automated snapshot endpoints, in the vendor's names", async () => {
    const report = await runVendorClients<Report>("snapshot-calls", { emulator, organization: "emulator-org", workspaces, snapshotDir, reading });
    expect(failed(report)).toEqual([]);
    expect(names(report)).toEqual(expect.arrayContaining([...SNAPSHOT_CALLS.both, ...SNAPSHOT_CALLS[reading]]));
    expect(report.checks).toHaveLength(COUNTS.snapshot[reading]);
    // Stored in the spec's names, as the provider reads them.
    expect(emulator.snapshot.configs.get("s3-keys")?.config).toEqual({
      interval: 3600,
      retain: 3,
      path_prefix: "raft/",
      file_prefix: "vault-snapshot",
      storage_type: "cloudA-s3",
      cloudA_s3_bucket: "snapshots",
      cloudA_s3_region: "eu-west-1",
      cloudA_access_key_id: "AKIAGOCLIENT1",
      cloudA_secret_access_key: "go-client-secret-1",
    });
    expect(emulator.snapshot.configs.get("blob-managed")?.config).toMatchObject({ storage_type: "cloudB-blob", cloudB_client_id: "client-id" });
    // The real snapshot's file, kept at `retain` (2) at most; its configuration deleted, no more are taken.
    const files = readdirSync(snapshotDir).filter((f) => f.startsWith("go-client-"));
    expect(files.length).toBeGreaterThanOrEqual(1);
    expect(files.length).toBeLessThanOrEqual(2);
    expect(emulator.snapshot.configs.has("every-second")).toBe(false);
  });
});
