import type { Body } from "../services/runtask/endpoints";
import type { EnforcementLevel, Stage } from "../services/runtask/vocabulary";
import { relatedId, type ResourceObject } from "../services/runtask/jsonApi";
import type { StateOf } from "../table/types";
import { fromWire, read, toWire } from "../table/wire";
import { workspaceRunTaskTable } from "./fields";
import type { WorkspaceTaskRecord } from "./record";

export type { WorkspaceTaskRecord };

type Props = Record<string, unknown>;
const { fields } = workspaceRunTaskTable;

/** An association as the provider keeps it. */
export type WorkspaceRunTaskState = StateOf<typeof workspaceRunTaskTable> & { workspaceId: string; taskId: string };

/** The body of an associate (with the task relationship) or an update: `enforcement-level` and `stages`. */
export function workspaceTaskBody(state: WorkspaceRunTaskState, options: { withTask: boolean }): Body {
  const body: Body = { type: "workspace-tasks", attributes: toWire(fields, { enforcementLevel: state.enforcementLevel, stages: state.stages }) };
  if (options.withTask) body.relationships = { task: { data: { id: state.taskId, type: "tasks" } } };
  return body;
}

/**
 * The association a document describes; the workspace from its relationship, else the one asked about. Values are
 * taken as the service words them (the table's types are what the spec allows).
 */
export function workspaceTaskFromWire(resource: ResourceObject, workspaceId: string): WorkspaceTaskRecord {
  const a = fromWire(fields, resource.attributes, {});
  const reported = read(fields.stage.value, resource.attributes.stage);
  const stage = typeof reported === "string" ? (reported as Stage) : undefined;
  // Older servers know only the single `stage`.
  const stages = Array.isArray(a.stages) ? (a.stages as Stage[]) : stage !== undefined ? [stage] : [];
  const record: WorkspaceTaskRecord = {
    id: resource.id,
    workspaceId: relatedId(resource, "workspace") ?? workspaceId,
    taskId: relatedId(resource, "task") ?? "",
    enforcementLevel: (typeof a.enforcementLevel === "string" ? a.enforcementLevel : "") as EnforcementLevel,
    stages,
  };
  const deprecatedStage = stage ?? stages[0];
  if (deprecatedStage !== undefined) record.stage = deprecatedStage;
  return record;
}

/** Outputs: the arguments as applied, `stage` as the service reports it (the first stage), and the association id. */
export function outputsOf(state: WorkspaceRunTaskState, record: WorkspaceTaskRecord): Props {
  return { ...state, stages: record.stages, stage: record.stages[0], workspaceTaskId: record.id };
}

/** The inputs a program would write (what an import generates): `stages` carries the meaning, not `stage`. */
export function inputsOf(outputs: Props): Props {
  const { workspaceTaskId: _w, stage: _s, ...inputs } = outputs;
  return inputs;
}
