import { takenOverOrRefused } from "../takeover/alreadyExists";
import { SnapshotRunTaskError } from "../common/errors";
import { toPlainJson } from "../common/plainJson";
import { providerContext } from "../context";
import { GONE, isImport, type ResourceProvider } from "../resource";
import { heldByAnotherResource, hold, ownDeleteLeftUndone } from "../takeover/heldObjects";
import { createRefusalChecked } from "../services/runtask/createRefusalChecked";
import { runTaskEndpoints, withGlobalOf, type RunTaskEndpoints } from "../services/runtask/endpoints";
import { relatedId, type ResourceObject } from "../services/runtask/jsonApi";
import { requireTaskGone } from "../services/runtask/proofOfGone";
import { defaultOrganization } from "../services/runtask/settings";
import { checkAndDiff } from "../tableProvider";
import { ServiceError } from "../http/serviceError";
import { checkRunTask, diffRunTaskDetail, runTaskTable } from "./fields";
import { afterFailedPatch } from "./failedUpdate";
import { asksForGlobal, globalOfCreate, globalToSend, reportedGlobal, sameGlobal, unsupportedAfterWrite } from "./global";
import { noticeAdoption } from "../takeover/adoptionNotice";
import { requireNotHeldByAnother, theOneObject, type Lookup } from "../takeover/proof";
import { adoptsPendingCreate, namedForPendingCreate } from "../takeover/pendingCreates";
import { taskIdOfImport } from "./importId";
import { organizationHolding } from "./organization";
import { inputsOf, taskBody, taskFromWire, type RunTaskState, type TaskWrite } from "./wire";

type Props = Record<string, unknown>;

function stateOf(props: Props): RunTaskState {
  const { __provider: _p, taskId: _t, ...rest } = props;
  return { ...rest, organization: String(rest.organization ?? ""), name: String(rest.name ?? ""), url: String(rest.url ?? "") };
}

/** Outputs: the arguments as applied, the global settings the service holds, and the task id. */
function outputs(s: RunTaskState, task: ResourceObject, sentGlobal?: RunTaskState["global"]): Props {
  const global = reportedGlobal(task) ?? sentGlobal ?? s.global;
  return toPlainJson({ ...s, global, taskId: task.id }) as Props;
}

function secretsOf(write: TaskWrite): string[] {
  return write.hmacKey ? [write.hmacKey] : [];
}

/** What names a task on the service, as the holds of a deployment record it. */
function identityOf(s: RunTaskState): string {
  return `${s.organization}/${s.name}`;
}

/**
 * The task found in a create's way (its name taken, or found after a lost answer and not what the create sent): taken
 * over where it is proven this resource's own, made by an up that was stopped while creating it; refused otherwise,
 * naming the causes that apply (takeover/alreadyExists.ts).
 */
async function foundInTheWay(
  api: RunTaskEndpoints,
  s: RunTaskState,
  write: TaskWrite,
  inputs: Props,
  found: ResourceObject,
): Promise<ResourceObject> {
  await takenOverOrRefused({
    label: `run task "${s.name}" of organization "${s.organization}"`,
    kind: "run task",
    id: found.id,
    identity: "the same `name` in one organization (a task's name is the resource's name where `name` is not given)",
    name: s.name,
    inputs: s,
    holdsWhatWasSent: (sent) => isWhatWasSent(taskFromWire(found, {}), stateOf(sent)),
  });
  return takeOverTask(api, found, s, write, inputs);
}

/** An import by id whose organization no list could name. */
function organizationUnknown(importId: string, task: ResourceObject): SnapshotRunTaskError {
  const related = relatedId(task, "organization");
  return new SnapshotRunTaskError(
    "not_found",
    `import "${importId}": the task's organization cannot be told: neither runtask:organization nor its relationship's id` +
      `${related ? ` ("${related}", the organization's id, which need not be its name)` : ""} names an organization whose task list ` +
      "holds it. Import it as <organization>/<task-name>",
  );
}

/**
 * Whether a task found after a create's answer was lost is the one that create made: same attributes as sent
 * (the HMAC key cannot be compared, the service never returns it). A task of that name that differs was there
 * before, and is not taken over without `adopt`.
 */
function isWhatWasSent(found: RunTaskState, sent: RunTaskState): boolean {
  return (
    found.url === sent.url &&
    (found.description ?? "") === (sent.description ?? "") &&
    found.category === sent.category &&
    found.enabled === sent.enabled
  );
}

/** Every task of that name in the organization, the spec not making names unique there. */
async function tasksNamed(api: RunTaskEndpoints, organization: string, name: string): Promise<Lookup<ResourceObject>> {
  const list = await api.listTasks(organization);
  return { found: list.items.filter((t) => t.attributes.name === name), consistent: list.consistent };
}

/** The task of that name in the organization, taken for `purpose` only where it is the only one (proof.ts). */
async function theTaskNamed(api: RunTaskEndpoints, s: RunTaskState, purpose: string): Promise<ResourceObject | undefined> {
  const identity = `run tasks named "${s.name}" in organization "${s.organization}"`;
  return theOneObject(await tasksNamed(api, s.organization, s.name), (t) => t.id, { kind: "run task", identity, purpose });
}

/** After a 404 for a task: gone only when its organization's list (the state's, or the default one) proves it. */
function requireGoneTask(api: RunTaskEndpoints, id: string, s: RunTaskState, method: "GET" | "DELETE"): Promise<void> {
  return requireTaskGone(api, method, id, s.organization || defaultOrganization(providerContext().config));
}

/**
 * Creates the task without ever making a duplicate (`createOnce`). A refusal (422) is looked into rather than
 * read: when a task of that name exists, what comes of it is `foundInTheWay`, whatever the service's wording.
 */
function createTask(api: RunTaskEndpoints, s: RunTaskState, write: TaskWrite, inputs: Props): Promise<ResourceObject> {
  const body = taskBody(s, write);
  return createRefusalChecked(api.http, {
    post: () => api.createTask(s.organization, body, secretsOf(write)),
    find: () => theTaskNamed(api, s, `run task "${s.name}": a create whose outcome is unknown`),
    matches: (found) => isWhatWasSent(taskFromWire(found, {}), s),
    taken: (found) => foundInTheWay(api, s, write, inputs, found),
  });
}

/**
 * Makes a task that exists the program's (an adopt, a recovery): one PATCH, whose answer must be the task showing
 * what was sent. A failure that may have been carried out, or an answer that does not show it, is settled by a read
 * (failedUpdate.ts): success is claimed only once the service shows the program's settings.
 */
async function takeOverTask(
  api: RunTaskEndpoints,
  existing: ResourceObject,
  s: RunTaskState,
  write: TaskWrite,
  inputs: Props,
): Promise<ResourceObject> {
  const update = { id: existing.id, old: taskFromWire(existing, { organization: s.organization }), state: s, write, inputs };
  let task: ResourceObject;
  try {
    task = await api.updateTask(existing.id, taskBody(s, write), secretsOf(write), s.organization);
  } catch (err) {
    throw await afterFailedPatch(api, update, err);
  }
  if (isWhatWasSent(taskFromWire(task, {}), s)) return task;
  const unshown = new ServiceError({
    service: api.http.service,
    method: "PATCH",
    path: `/tasks/${existing.id}`,
    status: 200,
    code: "unexpected_answer",
    advice: "the task it answers does not show the settings sent",
  });
  throw await afterFailedPatch(api, update, unshown);
}

/** The `RunTask` provider. The resource id is the service's `task-...` id. */
export const runTaskProvider: ResourceProvider = {
  ...checkAndDiff(
    (olds, news, context) => checkRunTask(news, defaultOrganization(providerContext().config), context, olds),
    diffRunTaskDetail,
    (id) => hold("run task", id),
    (olds, inputs) =>
      noticeAdoption(runTaskTable, olds, inputs, {
        what: "run task",
        label: (i) => `RunTask "${String(i.name)}"`,
        lookUp: async (i) => {
          const s = stateOf(i);
          const task = await theTaskNamed(runTaskEndpoints(), s, `RunTask "${s.name}": adopt`);
          if (!task) return undefined;
          const key = s.hmacKey === undefined ? { written: [], left: ["hmacKey"] } : { written: ["hmacKey"], left: [] };
          return {
            found: `${task.id} in organization "${s.organization}"`,
            state: taskFromWire(task, { organization: s.organization }),
            unreadable: { ...key, how: "the task keeps its key (set hmacKey in the program to replace it)" },
          };
        },
      }),
  ),

  async create(inputs) {
    const s = stateOf(inputs);
    const api = runTaskEndpoints();
    // This resource's own delete, left undone earlier in the deployment (takeover/heldObjects.ts), is carried out first.
    const undone = ownDeleteLeftUndone("run task", identityOf(s));
    if (undone && !(await api.deleteTask(undone))) await requireGoneTask(api, undone, s, "DELETE");
    // Adopted, or named by the recovery of an up stopped while creating it (takeover/pendingCreates.ts).
    const purpose = s.adopt === true ? `RunTask "${s.name}": adopt` : `RunTask "${s.name}": the recovery of an up stopped while creating it`;
    const found = s.adopt === true || namedForPendingCreate() ? await theTaskNamed(api, s, purpose) : undefined;
    if (found) requireNotHeldByAnother({ kind: "run task", identity: `run task ${found.id}`, purpose }, found.id);
    const existing = found && (s.adopt === true || adoptsPendingCreate("run task", found.id)) ? found : undefined;
    // The key is sent where the program gives one: an adopted task's key, which no read shows, is kept otherwise.
    const write: TaskWrite = { hmacKey: s.hmacKey, global: globalOfCreate(s, existing) };
    const task = existing ? await takeOverTask(api, existing, s, write, inputs) : await createTask(api, s, write, inputs);
    // Held from here: the task is recorded, or (made only to find the settings unsupported) deleted again.
    hold("run task", task.id);
    if (asksForGlobal(s.global) && reportedGlobal(task) === undefined)
      throw await unsupportedAfterWrite(api, s, task, inputs, existing ? "adopted" : "created");
    return { id: task.id, outs: outputs(s, task, write.global) };
  },

  async read(readId, props) {
    const api = runTaskEndpoints();
    // An import gives an id alone, in one of the forms users have; a refresh the state's id and outputs.
    const importing = isImport(props);
    const { id, organization } = importing ? await taskIdOfImport(api, readId) : { id: readId, organization: undefined };
    const prior = stateOf({ organization, ...props });
    // Global settings a show leaves out are read from the list, where they matter: an import, or a state that has some.
    let found =
      prior.organization && (importing || prior.global !== undefined) ? await api.showTaskWithGlobal(id, prior.organization) : await api.showTask(id);
    if (!found) {
      await requireGoneTask(api, id, prior, "GET");
      return GONE;
    }
    if (importing && !prior.organization) {
      // Imported by its id: its organization's name is the one whose list holds it (organization.ts).
      const holding = await organizationHolding(api, found.task, [defaultOrganization(providerContext().config)]);
      if (!holding) throw organizationUnknown(readId, found.task);
      prior.organization = holding.organization;
      const global = found.task.attributes["global-configuration"] ?? holding.listed.attributes["global-configuration"];
      if (global !== undefined) found = { ...found, task: withGlobalOf(found.task, global) };
    }
    if (importing) hold("run task", id);
    const state = taskFromWire(found.task, prior);
    const outs = toPlainJson({ ...state, taskId: id }) as Props;
    return { id, props: outs, inputs: toPlainJson(inputsOf(state)) as Props };
  },

  async update(id, olds, news) {
    const s = stateOf(news);
    const old = stateOf(olds);
    const write: TaskWrite = {};
    // The key is write-only: sent only when it changed, so an unrelated update never resets it.
    if (s.hmacKey !== old.hmacKey) write.hmacKey = s.hmacKey ?? "";
    // Global settings are sent only when they differ in meaning: an organization without the feature gets none.
    if (!sameGlobal(old.global, s.global)) write.global = globalToSend(s.global);
    const api = runTaskEndpoints();
    let task: ResourceObject;
    try {
      task = await api.updateTask(id, taskBody(s, write), secretsOf(write), s.organization);
    } catch (err) {
      // Carried out though it failed, the update is recorded as the service holds it (a partial failure).
      throw await afterFailedPatch(api, { id, old, state: s, write, inputs: news }, err);
    }
    if (asksForGlobal(s.global) && reportedGlobal(task) === undefined) throw await unsupportedAfterWrite(api, s, task, news, "updated");
    return { outs: outputs(s, task, write.global ?? old.global) };
  },

  async delete(id, props) {
    if (heldByAnotherResource("run task", id, identityOf(stateOf(props ?? {})))) return;
    const api = runTaskEndpoints();
    // Already gone is what delete wants, but only when the 404 is proven to mean that.
    if (!(await api.deleteTask(id))) await requireGoneTask(api, id, stateOf(props ?? {}), "DELETE");
  },
};
