import type { dynamic } from "@pulumi/pulumi";
import { toPlainJson } from "../common/plainJson";
import { providerConfig } from "../config/lookup";
import { isStatus } from "../http/serviceError";
import { createOnce } from "./createOnce";
import { checkRunTask } from "./runTaskCheck";
import { diffRunTask } from "./runTaskDiff";
import { runTaskApi } from "./services";
import { defaultOrganization } from "./settings";
import type { RunTaskAttributes, RunTaskRecord } from "./tasks";

type Props = Record<string, unknown>;

interface GlobalArgs {
  enabled: boolean;
  stages?: string[];
  enforcementLevel?: string;
}

/** The normalised arguments `check` produces, as they are kept in state. */
interface RunTaskState {
  organization: string;
  name: string;
  url: string;
  description?: string;
  category: string;
  hmacKey?: string;
  enabled: boolean;
  global?: GlobalArgs;
  adopt?: boolean;
}

function stateOf(props: Props): RunTaskState {
  const { __provider: _p, taskId: _t, ...rest } = props;
  return rest as unknown as RunTaskState;
}

/** Everything but the HMAC key, which is sent only when it changes. */
function attributes(s: RunTaskState): RunTaskAttributes {
  return { name: s.name, url: s.url, description: s.description ?? "", category: s.category, enabled: s.enabled, global: s.global };
}

/**
 * The organization has no global run tasks feature when the service answers without `global-configuration`;
 * it then ignores the settings silently, which would leave the program claiming what is not so.
 */
function assertGlobalSupported(s: RunTaskState, task: RunTaskRecord): void {
  if (s.global !== undefined && task.global === undefined) {
    throw new Error(
      `organization "${s.organization}" does not support global run tasks (the service answered without global-configuration): ` +
        "remove `global` from RunTask " + `"${s.name}", or enable the feature for the organization`,
    );
  }
}

/** Outputs: the arguments as applied, plus the task id. The HMAC key is the last applied value. */
function outputs(s: RunTaskState, task: RunTaskRecord): Props {
  return toPlainJson({ ...s, taskId: task.id }) as Props;
}

/** State for what the service reports; write-only and never-set values keep their state form. */
function stateFromService(prior: RunTaskState, task: RunTaskRecord): RunTaskState {
  const next: RunTaskState = {
    organization: task.organization || prior.organization,
    name: task.name,
    url: task.url,
    category: task.category,
    enabled: task.enabled,
  };
  if (task.description !== undefined || prior.description !== undefined) next.description = task.description ?? "";
  if (prior.description === undefined && next.description === "") delete next.description;
  // The service never returns the key: keep what was last applied.
  if (prior.hmacKey !== undefined) next.hmacKey = prior.hmacKey;
  if (prior.global !== undefined && task.global) {
    next.global = { enabled: task.global.enabled };
    if (prior.global.stages !== undefined || task.global.stages.length > 0) next.global.stages = task.global.stages;
    if (task.global.enforcementLevel !== undefined) next.global.enforcementLevel = task.global.enforcementLevel;
  } else if (prior.global !== undefined) {
    next.global = prior.global;
  }
  if (prior.adopt !== undefined) next.adopt = prior.adopt;
  return next;
}

function taskExists(s: RunTaskState): Error {
  return new Error(
    `a run task named "${s.name}" already exists in organization "${s.organization}": set adopt: true to take it over, or choose another name`,
  );
}

/**
 * Whether a task found after a create's answer was lost is the one that create made: same attributes as sent
 * (the HMAC key cannot be compared, the service never returns it). A task of that name that differs was
 * there before, and is not taken over without `adopt`.
 */
function isWhatWasSent(found: RunTaskRecord, sent: RunTaskAttributes): boolean {
  return (
    found.url === sent.url &&
    (found.description ?? "") === (sent.description ?? "") &&
    found.category === sent.category &&
    found.enabled === sent.enabled
  );
}

export const runTaskProvider = {
  async check(_olds: Props, news: Props): Promise<dynamic.CheckResult> {
    return checkRunTask(news, defaultOrganization(providerConfig()));
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return diffRunTask(olds, news);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const s = stateOf(inputs);
    const { tasks } = runTaskApi();
    const write: RunTaskAttributes = { ...attributes(s), hmacKey: s.hmacKey };
    let task: RunTaskRecord;
    const existing = s.adopt === true ? await tasks.findByName(s.organization, s.name) : undefined;
    if (existing) {
      task = await tasks.update(existing.id, write);
    } else {
      const taken = (err: unknown) => isStatus(err, 422) && /already been taken/i.test(err.message);
      try {
        task = await createOnce(
          () => tasks.create(s.organization, write),
          () => tasks.findByName(s.organization, s.name),
          { matches: (found) => isWhatWasSent(found, write), foreign: () => taskExists(s), isConflict: taken },
        );
      } catch (err) {
        if (taken(err)) throw taskExists(s);
        throw err;
      }
    }
    if (s.global !== undefined && task.global === undefined && !existing) {
      // Leave nothing behind: the task was created only to find the settings unsupported.
      await tasks.delete(task.id);
    }
    assertGlobalSupported(s, task);
    return { id: task.id, outs: outputs(s, task) };
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const task = await runTaskApi().tasks.show(id);
    if (!task) return { id: "", props: {} };
    const state = stateFromService(stateOf(props ?? {}), task);
    const outs = outputs(state, task);
    const { taskId: _t, ...inputs } = outs;
    return { id, props: outs, inputs };
  },

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const s = stateOf(news);
    const old = stateOf(olds);
    const write = attributes(s);
    // The key is write-only: send it only when it changed, so an unrelated update never resets it.
    if (s.hmacKey !== old.hmacKey) write.hmacKey = s.hmacKey ?? "";
    const task = await runTaskApi().tasks.update(id, write);
    assertGlobalSupported(s, task);
    return { outs: outputs(s, task) };
  },

  async delete(id: string): Promise<void> {
    await runTaskApi().tasks.delete(id);
  },
};
