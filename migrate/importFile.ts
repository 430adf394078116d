import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PlannedResource } from "./plan";
import type { PulumiCli } from "./pulumiCli";
import type { ServiceRead } from "./serviceReads";

type Props = Record<string, unknown>;

/** The signature key and value of a secret in Pulumi's state encoding (sdk/go/common/resource/sig). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Whether a value of an exported state is a secret (`{"4dabf...": "1b47...", "ciphertext": ...}`). */
export function isSecretValue(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/**
 * One resource of `pulumi import --file`'s file (pulumi/pulumi v3.274.1, pkg/cmd/pulumi/operations/import.go,
 * `importSpec`): its type, name and id, and `inputs`, which fill what the provider's Read leaves absent or null and
 * make a read value secret where the supplied one is (pkg/resource/deploy/step.go, `mergeSuppliedProperties`). Outputs
 * are not supplied: the Read runs, and proves once more that the object exists.
 */
export interface ImportSpec {
  type: string;
  name: string;
  id: string;
  inputs: Props;
}

/**
 * The inputs supplied for one resource: Terraform's values, those where the service differs left to the Read (the
 * service wins), and its secrets as ciphertexts of the stack's own secrets provider.
 */
export function suppliedInputs(resource: PlannedResource, read: ServiceRead, ciphertexts: Record<string, string>): Props {
  const drifted = new Set(read.drift.map((d) => d.argument));
  const inputs = Object.fromEntries(Object.entries(resource.mapped.inputs).filter(([k]) => !drifted.has(k)));
  for (const [input, ciphertext] of Object.entries(ciphertexts)) inputs[input] = { [SIG_KEY]: SECRET_SIG, ciphertext };
  return inputs;
}

/** Config key under which each secret is encrypted for the import file, then removed. */
const STAGING_KEY = "pulumiSnapshotRuntaskMigrationStaging";

/**
 * The ciphertext of `value` as the stack's secrets provider writes it into the state, made without any file holding it
 * in plain text: `pulumi config set --secret` encrypts the value's JSON text (what a state secret decrypts to) from its
 * standard input into the stack's settings file, where the ciphertext is read from; the staging key is removed by
 * `removeStaging`. The config's secrets and the state's are one secrets provider's (pulumi/pulumi v3.274.1,
 * `pulumi import` decrypts the file's secrets with the stack configuration's `Decrypter`).
 */
export async function stateCiphertext(cli: PulumiCli, settingsFile: string, project: string, value: string): Promise<string> {
  await cli.setSecret(STAGING_KEY, JSON.stringify(value));
  const text = readFileSync(settingsFile, "utf8");
  const key = `${project}:${STAGING_KEY}`;
  const match = new RegExp(`^\\s+["']?${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["']?:\\s*\\r?\\n\\s+secure:\\s*["']?([^"'\\s]+)`, "m").exec(text);
  if (!match) throw new Error(`the stack's settings file ${settingsFile} holds no encrypted value of ${key} after \`pulumi config set --secret\``);
  return match[1];
}

export async function removeStaging(cli: PulumiCli): Promise<void> {
  await cli.removeConfig(STAGING_KEY);
}

/** Runs `use` with the import file written to a private folder (0700, the file 0600), removed whatever happens. */
export async function withImportFile<T>(specs: ImportSpec[], use: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-snapshot-runtask-import-"));
  try {
    chmodSync(dir, 0o700);
    const file = join(dir, "import.json");
    writeFileSync(file, `${JSON.stringify({ resources: specs }, null, 2)}\n`, { mode: 0o600 });
    return await use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
