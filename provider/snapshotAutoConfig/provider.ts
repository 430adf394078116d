import { toPlainJson } from "../common/plainJson";
import { providerContext } from "../context";
import type { ResourceProvider } from "../resource";
import { GONE } from "../resource";
import { checkAndDiff } from "../tableProvider";
import { SnapshotEndpoints } from "../services/snapshot/endpoints";
import { resolveSnapshotSettings } from "../services/snapshot/settings";
import { checkSnapshotAutoConfig } from "./check";
import { diffSnapshotAutoConfigDetail } from "./diff";
import { fromWire, secretValues, toWire, type SnapshotAutoConfigState } from "./wire";

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

/** The `SnapshotAutoConfig` provider. The resource id is the configuration name. */
export const snapshotAutoConfigProvider: ResourceProvider = {
  ...checkAndDiff((_olds, news, context) => checkSnapshotAutoConfig(news, context), diffSnapshotAutoConfigDetail),

  async create(inputs) {
    const state = stateOf(inputs);
    const api = endpoints();
    const existing = await api.readConfig(state.name);
    if (existing && state.adopt !== true) {
      throw new Error(
        `snapshot configuration "${state.name}" already exists: set adopt: true to take it over, ` + "or choose another name (it is not overwritten)",
      );
    }
    await api.writeConfig(state.name, toWire(state), secretValues(state));
    return { id: state.name, outs: outputs(state) };
  },

  async read(id, props) {
    const wire = await endpoints().readConfig(id, secretValues(props ?? {}));
    // An empty id tells the engine the object is gone: only on the service's "no such configuration".
    if (!wire) return GONE;
    const state = outputs(fromWire(id, wire, stateOf(props ?? {})));
    return { id, props: state, inputs: state };
  },

  async update(_id, _olds, news) {
    const state = stateOf(news);
    await endpoints().writeConfig(state.name, toWire(state), secretValues(state));
    return { outs: outputs(state) };
  },

  async delete(id, props) {
    // A configuration already deleted outside Pulumi is the outcome delete wants.
    await endpoints().deleteConfig(id, secretValues(props ?? {}));
  },
};
