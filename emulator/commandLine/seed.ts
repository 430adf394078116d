import { readFileSync } from "node:fs";
import { z } from "zod";
import type { EmulatorOptions } from "../index";
import { FULL_GRANT, type TokenGrant } from "../runtask/access";
import type { OrganizationSeed } from "../runtask/store";

/**
 * What the emulator starts with, from a seed file and flags: organizations with their workspaces, tokens of
 * both services, and the snapshot service's license. Anything left out takes the emulator's defaults.
 */
export interface Seed {
  host?: string;
  port?: number;
  organizations: OrganizationSeed[];
  /** Snapshot service tokens and whether each has the sudo capability. */
  snapshotTokens: Record<string, { sudo?: boolean }>;
  /** Run task service tokens and their permissions. */
  runTaskTokens: Record<string, TokenGrant>;
  licensed?: boolean;
  takeSnapshots?: boolean;
  /** Both services answer as their spec's letter says (`EmulatorOptions.letterOfSpec`). */
  letterOfSpec?: boolean;
  /** The snapshot service also speaks its vendor's names (`SnapshotEmulatorOptions.vendorNames`). */
  vendorNames?: boolean;
}

const organizationGrant = {
  owner: z.boolean().optional(),
  manageRunTasks: z.boolean().optional(),
  manageWorkspaceRunTasks: z.union([z.boolean(), z.array(z.string())]).optional(),
};

const grantSchema = z
  .object({
    ...organizationGrant,
    organizations: z.array(z.string()).optional(),
    perOrganization: z.record(z.string().min(1), z.object(organizationGrant).strict()).optional(),
  })
  .strict();

/** A list of tokens (full rights) or a map of token to rights. */
const tokens = <T extends z.ZodType>(grant: T, full: z.infer<T>) =>
  z
    .union([z.array(z.string().min(1)), z.record(z.string().min(1), grant)])
    .transform((v) => (Array.isArray(v) ? Object.fromEntries(v.map((t) => [t, full])) : v));

const seedFileSchema = z
  .object({
    host: z.string().optional(),
    port: z.number().int().min(0).max(65535).optional(),
    organizations: z
      .array(
        z
          .object({
            name: z.string().min(1),
            globalRunTasks: z.boolean().optional(),
            workspaces: z
              .array(z.union([z.string().min(1), z.object({ name: z.string().min(1), id: z.string().regex(/^ws-/).optional() }).strict()]))
              .optional(),
          })
          .strict(),
      )
      .optional(),
    snapshotTokens: tokens(z.object({ sudo: z.boolean().optional() }).strict(), { sudo: true }).optional(),
    runTaskTokens: tokens(grantSchema, FULL_GRANT).optional(),
    licensed: z.boolean().optional(),
    takeSnapshots: z.boolean().optional(),
    letterOfSpec: z.boolean().optional(),
    vendorNames: z.boolean().optional(),
  })
  .strict();

export function emptySeed(): Seed {
  return { organizations: [], snapshotTokens: {}, runTaskTokens: {} };
}

/** Reads and validates a seed file; errors name the file and the offending key. */
export function readSeedFile(path: string): Seed {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`seed file ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = seedFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`);
    throw new Error(`seed file ${path}: ${issues.join("; ")}`);
  }
  const f = parsed.data;
  return {
    host: f.host,
    port: f.port,
    organizations: (f.organizations ?? []).map((o) => ({
      name: o.name,
      globalRunTasks: o.globalRunTasks,
      workspaces: (o.workspaces ?? []).map((w) => (typeof w === "string" ? { name: w } : w)),
    })),
    snapshotTokens: f.snapshotTokens ?? {},
    runTaskTokens: f.runTaskTokens ?? {},
    licensed: f.licensed,
    takeSnapshots: f.takeSnapshots,
    letterOfSpec: f.letterOfSpec,
    vendorNames: f.vendorNames,
  };
}

/** Adds a workspace (`name` or `organization/name`) to the seed; the organization is created when missing. */
export function addWorkspace(seed: Seed, spec: string): void {
  const slash = spec.indexOf("/");
  const organization = slash >= 0 ? spec.slice(0, slash) : seed.organizations[0]?.name;
  const name = slash >= 0 ? spec.slice(slash + 1) : spec;
  if (!organization) throw new Error(`--workspace ${spec}: name an organization (organization/workspace) or pass --organization first`);
  if (!name) throw new Error(`--workspace ${spec}: the workspace name is empty`);
  const org = addOrganization(seed, organization);
  if (!org.workspaces!.some((w) => w.name === name)) org.workspaces!.push({ name });
}

export function addOrganization(seed: Seed, name: string): OrganizationSeed {
  let org = seed.organizations.find((o) => o.name === name);
  if (!org) {
    org = { name, workspaces: [] };
    seed.organizations.push(org);
  }
  org.workspaces ??= [];
  return org;
}

/** The emulator's options for a seed; empty parts are left to the emulator's defaults. */
export function emulatorOptionsOf(seed: Seed): EmulatorOptions {
  const has = (o: object) => Object.keys(o).length > 0;
  return {
    host: seed.host,
    port: seed.port,
    letterOfSpec: seed.letterOfSpec,
    snapshot: {
      tokens: has(seed.snapshotTokens) ? seed.snapshotTokens : undefined,
      licensed: seed.licensed,
      takeSnapshots: seed.takeSnapshots,
      vendorNames: seed.vendorNames,
    },
    runTask: {
      organizations: seed.organizations.length > 0 ? seed.organizations : undefined,
      tokens: has(seed.runTaskTokens) ? seed.runTaskTokens : undefined,
    },
  };
}
