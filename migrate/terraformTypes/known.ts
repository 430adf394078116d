import type { TypeMapping } from "./mapping";
import { tfeOrganizationRunTask } from "./tfe_organization_run_task";
import { tfeOrganizationRunTaskGlobalSettings } from "./tfe_organization_run_task_global_settings";
import { tfeWorkspaceRunTask } from "./tfe_workspace_run_task";
import { vaultRaftSnapshotAgentConfig } from "./vault_raft_snapshot_agent_config";

/** The Terraform types this command migrates, by type name: each one's mapping is the file named after it. */
export const KNOWN_TYPES: ReadonlyMap<string, TypeMapping> = new Map(
  [tfeOrganizationRunTask, tfeOrganizationRunTaskGlobalSettings, tfeWorkspaceRunTask, vaultRaftSnapshotAgentConfig].map((m) => [m.terraformType, m]),
);
