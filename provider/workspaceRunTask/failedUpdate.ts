import { messageOf } from "../common/errors";
import { codeOf, PartialFailure, withProviderText } from "../common/partialFailure";
import { toPlainJson } from "../common/plainJson";
import { mayHaveBeenCarriedOut } from "../http/serviceError";
import type { RunTaskEndpoints } from "../services/runtask/endpoints";
import { sameStages } from "../services/runtask/vocabulary";
import { outputsOf, workspaceTaskFromWire, type WorkspaceRunTaskState, type WorkspaceTaskRecord } from "./wire";

/** What a WorkspaceRunTask update tried: the resource's id, where the association is, its state before, the program's, the call's inputs. */
export interface AssociationUpdate {
  resourceId: string;
  workspaceId: string;
  id: string;
  old: WorkspaceRunTaskState;
  state: WorkspaceRunTaskState;
  inputs: Record<string, unknown>;
}

/**
 * A PATCH whose outcome is unknown after every retry (no answer, a server failure, a success answered with no
 * document) may have been carried out, and then a state that keeps the old settings is wrong both ways: a program put
 * back to them diffs as "no change", and the service keeps what the program no longer says. A read tells what the
 * service holds: the old settings (the PATCH was not carried out), and the failure stands; anything else, and the
 * association is recorded as the service holds it, with the failure (a partial failure), so that the next `up`
 * writes the program's settings whatever its diff. No answer to the read either: the failure stands.
 */
export async function afterFailedAssociationPatch(api: RunTaskEndpoints, update: AssociationUpdate, err: unknown): Promise<Error> {
  if (!mayHaveBeenCarriedOut(err)) return err as Error;
  const { resourceId, workspaceId, id, old, state, inputs } = update;
  let held: WorkspaceTaskRecord | undefined;
  try {
    const resource = await api.showWorkspaceTask(workspaceId, id);
    held = resource && workspaceTaskFromWire(resource, workspaceId);
  } catch {
    return err as Error;
  }
  if (!held || (held.enforcementLevel === old.enforcementLevel && sameStages(held.stages, old.stages))) return err as Error;
  const asHeld = { ...state, enforcementLevel: held.enforcementLevel as WorkspaceRunTaskState["enforcementLevel"] };
  const properties = withProviderText(toPlainJson(outputsOf(asHeld, held)) as Record<string, unknown>, inputs);
  const program = held.enforcementLevel === state.enforcementLevel && sameStages(held.stages, state.stages);
  const message =
    `${messageOf(err)}; whether the update was carried out is unknown, and a read shows the association with ` +
    `${program ? "the program's settings" : "other settings than the state's"}: it is recorded as the service holds it, ` +
    "and the next `pulumi up` writes the program's values";
  return new PartialFailure(codeOf(err), message, resourceId, properties, { cause: err });
}
