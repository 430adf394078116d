import { takenOverOrRefused } from "../takeover/alreadyExists";
import { PartialFailure } from "../common/partialFailure";
import { ServiceError } from "../http/serviceError";
import { toPlainJson } from "../common/plainJson";
import { providerContext } from "../context";
import type { ResourceProvider } from "../resource";
import { GONE, isImport } from "../resource";
import { heldByAnotherResource, hold, ownDeleteLeftUndone } from "../takeover/heldObjects";
import { checkAndDiff } from "../tableProvider";
import { SnapshotEndpoints, type SnapshotConfigWire } from "../services/snapshot/endpoints";
import type { FieldTable } from "../table/field";
import { resolveSnapshotSettings } from "../services/snapshot/settings";
import { noticeAdoption } from "../takeover/adoptionNotice";
import { adoptsPendingCreate } from "../takeover/pendingCreates";
import { checkSnapshotAutoConfig, diffSnapshotAutoConfigDetail, snapshotAutoConfigTable } from "./fields";
import { credentialsUnread, fromWire, secretValues, type SnapshotAutoConfigState } from "./wire";
import { afterWrite, hiddenAfterRead, hiddenCredentialsOf, withHiddenCredentials } from "./credentialReads";
import * as writes from "./writes";
import { UNREAD_CREDENTIALS_LEFT } from "./writes";

type Props = Record<string, unknown>;

function endpoints(): SnapshotEndpoints {
  const { config, tuning } = providerContext();
  return new SnapshotEndpoints(resolveSnapshotSettings(config), tuning);
}

/** What goes into state: the checked arguments, without the engine's own `__provider`. */
function stateOf(inputs: Props): SnapshotAutoConfigState {
  const { __provider: _ignored, ...rest } = inputs;
  return { ...rest, name: String(rest.name), storageType: rest.storageType as SnapshotAutoConfigState["storageType"] };
}

function outputs(state: SnapshotAutoConfigState): Props {
  return toPlainJson(state) as Props;
}

/**
 * Whether a configuration holds the settings of `sent` (a create's inputs as a state keeps them) that a read shows:
 * its secrets, which a state keeps encrypted and a service may hide, aside.
 */
function holdsSettingsOf(wire: SnapshotConfigWire, sent: SnapshotAutoConfigState): boolean {
  const { changed } = diffSnapshotAutoConfigDetail(fromWire(sent.name, wire, sent), sent);
  return changed.every((key) => (snapshotAutoConfigTable.fields as FieldTable)[key]?.secret === true);
}

/** A refresh's or a delete's 404 that is not the service's "no such configuration" fails, saying what it keeps. */
async function keepingState<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof ServiceError && err.code === "not_found")) throw err;
    throw err.with({ advice: [err.advice, "the configuration is kept in the state"].filter(Boolean).join("; ") });
  }
}

/** The `SnapshotAutoConfig` provider. The resource id is the configuration name. */
export const snapshotAutoConfigProvider: ResourceProvider = {
  ...checkAndDiff(
    (olds, news, context) => checkSnapshotAutoConfig(news, context, olds),
    diffSnapshotAutoConfigDetail,
    (id) => hold("snapshot configuration", id),
    (olds, inputs) =>
      noticeAdoption(snapshotAutoConfigTable, olds, inputs, {
        what: "snapshot configuration",
        label: (i) => `SnapshotAutoConfig "${String(i.name)}"`,
        lookUp: async (i) => {
          const name = String(i.name);
          const wire = await endpoints().readConfig(name, secretValues(i));
          if (!wire) return undefined;
          const unread = credentialsUnread(wire, String(i.storageType));
          return {
            found: `configuration "${name}"`,
            state: fromWire(name, wire, {}),
            unreadable: {
              written: unread.filter((arg) => i[arg] !== undefined),
              left: unread.filter((arg) => i[arg] === undefined),
              how: UNREAD_CREDENTIALS_LEFT,
            },
          };
        },
      }),
  ),

  async create(inputs) {
    const state = stateOf(inputs);
    const api = endpoints();
    const secrets = secretValues(state);
    // This resource's own delete, left undone earlier in the deployment (takeover/heldObjects.ts), is carried out first.
    const undone = ownDeleteLeftUndone("snapshot configuration", state.name);
    if (undone) await keepingState(api.deleteConfig(undone, secrets));
    const existing = await api.readConfig(state.name, secrets);
    if (existing && state.adopt !== true && !adoptsPendingCreate("snapshot configuration", state.name)) {
      // Taken over where it is proven this resource's own, made by an up stopped while creating it; refused otherwise.
      await takenOverOrRefused({
        label: `snapshot configuration "${state.name}"`,
        kind: "snapshot configuration",
        id: state.name,
        identity: "the same `name` (a configuration's name is the resource's name where `name` is not given)",
        name: state.name,
        inputs: state,
        holdsWhatWasSent: (sent) => holdsSettingsOf(existing, stateOf(sent)),
      });
    }
    const writing = { api, state, secrets, inputs };
    let readBack: SnapshotConfigWire | undefined;
    try {
      // Taken over: what a read shows that the program does not set is cleared, and nothing is deleted (writes.ts).
      if (existing) readBack = await writes.adopt(writing, existing);
      else await writes.create(writing);
    } catch (err) {
      // A partial failure records the configuration: it is this resource's too.
      if (err instanceof PartialFailure) hold("snapshot configuration", state.name);
      throw err;
    }
    hold("snapshot configuration", state.name);
    return { id: state.name, outs: await afterWrite(api, state.name, outputs(state), secrets, readBack) };
  },

  async read(id, props) {
    const wire = await keepingState(endpoints().readConfig(id, secretValues(props ?? {})));
    // An empty id tells the engine the object is gone: only on the service's "no such configuration".
    if (!wire) return GONE;
    if (isImport(props)) hold("snapshot configuration", id);
    // What the state knows of the credentials this service hides decides what an absent one means.
    const known = hiddenCredentialsOf(props ?? {});
    const state = outputs(fromWire(id, wire, stateOf(props ?? {}), known));
    return { id, props: withHiddenCredentials(state, hiddenAfterRead(known, wire)), inputs: state };
  },

  async update(_id, olds, news) {
    const state = stateOf(news);
    const old = stateOf(olds);
    const api = endpoints();
    const secrets = [...secretValues(state), ...secretValues(old)];
    await writes.update({ api, state, secrets, inputs: news }, old);
    return { outs: await afterWrite(api, state.name, outputs(state), secrets) };
  },

  async delete(id, props) {
    if (heldByAnotherResource("snapshot configuration", id, id)) return;
    // A configuration already deleted outside Pulumi is the outcome delete wants.
    await keepingState(endpoints().deleteConfig(id, secretValues(props ?? {})));
  },
};
