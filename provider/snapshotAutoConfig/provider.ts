import { alreadyExists } from "../common/alreadyExists";
import { toPlainJson } from "../common/plainJson";
import { providerContext } from "../context";
import type { ResourceProvider } from "../resource";
import { GONE, isImport } from "../resource";
import { heldByAnotherResource, hold } from "../heldObjects";
import { checkAndDiff } from "../tableProvider";
import { SnapshotEndpoints, type SnapshotConfigWire } from "../services/snapshot/endpoints";
import { resolveSnapshotSettings } from "../services/snapshot/settings";
import { noticeAdoption } from "../adoptionNotice";
import { checkSnapshotAutoConfig } from "./check";
import { snapshotAutoConfigTable } from "./fields";
import { diffSnapshotAutoConfigDetail } from "./diff";
import { fromWire, secretValues, toWire, type SnapshotAutoConfigState } from "./wire";
import { writePlan } from "./writePlan";

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

/** Writes the configuration so that nothing `held` has and the program does not stays behind (`writePlan`). */
async function write(api: SnapshotEndpoints, state: SnapshotAutoConfigState, held: SnapshotConfigWire | undefined, secrets: string[]): Promise<void> {
  const plan = writePlan(state, held);
  if (plan.deleteFirst) await api.deleteConfig(state.name, secrets);
  await api.writeConfig(state.name, plan.body, secrets);
}

function outputs(state: SnapshotAutoConfigState): Props {
  return toPlainJson(state) as Props;
}

/** The `SnapshotAutoConfig` provider. The resource id is the configuration name. */
export const snapshotAutoConfigProvider: ResourceProvider = {
  ...checkAndDiff(
    (olds, news, context) => checkSnapshotAutoConfig(news, context, olds),
    diffSnapshotAutoConfigDetail,
    (olds, inputs) =>
      noticeAdoption(snapshotAutoConfigTable, olds, inputs, {
        what: "snapshot configuration",
        label: (i) => `SnapshotAutoConfig "${String(i.name)}"`,
        lookUp: async (i) => {
          const name = String(i.name);
          const wire = await endpoints().readConfig(name, secretValues(i));
          return wire && { found: `configuration "${name}"`, state: fromWire(name, wire, {}) };
        },
      }),
  ),

  async create(inputs) {
    const state = stateOf(inputs);
    const api = endpoints();
    const existing = await api.readConfig(state.name, secretValues(state));
    if (existing && state.adopt !== true) {
      throw alreadyExists(`snapshot configuration "${state.name}"`);
    }
    // Adopted: whatever the configuration holds that the program does not set is cleared.
    await write(api, state, existing, secretValues(state));
    hold("snapshot configuration", state.name);
    return { id: state.name, outs: outputs(state) };
  },

  async read(id, props) {
    const wire = await endpoints().readConfig(id, secretValues(props ?? {}));
    // An empty id tells the engine the object is gone: only on the service's "no such configuration".
    if (!wire) return GONE;
    if (isImport(props)) hold("snapshot configuration", id);
    const state = outputs(fromWire(id, wire, stateOf(props ?? {})));
    return { id, props: state, inputs: state };
  },

  async update(_id, olds, news) {
    const state = stateOf(news);
    const old = stateOf(olds);
    await write(endpoints(), state, toWire(old), [...secretValues(state), ...secretValues(old)]);
    return { outs: outputs(state) };
  },

  async delete(id, props) {
    if (heldByAnotherResource("snapshot configuration", id)) return;
    // A configuration already deleted outside Pulumi is the outcome delete wants.
    await endpoints().deleteConfig(id, secretValues(props ?? {}));
  },
};
