import type { dynamic } from "@pulumi/pulumi";
import { toPlainJson } from "../common/plainJson";
import { providerConfig } from "../config/lookup";
import { checkSnapshotAutoConfig } from "./check";
import { SnapshotClient } from "./client";
import { diffSnapshotAutoConfig } from "./diff";
import { resolveSnapshotSettings } from "./settings";
import type { SnapshotAutoConfigState } from "./types";
import { fromWire, secretValues, toWire } from "./wire";

type Props = Record<string, unknown>;

function client(): SnapshotClient {
  return new SnapshotClient(resolveSnapshotSettings(providerConfig()));
}

/** What goes into state: the normalised arguments, without the engine's own `__provider`. */
function stateOf(inputs: Props): SnapshotAutoConfigState {
  const { __provider: _ignored, ...rest } = inputs;
  return rest as SnapshotAutoConfigState;
}

/** The `SnapshotAutoConfig` provider. The resource id is the configuration name. */
export const snapshotAutoConfigProvider = {
  async check(_olds: Props, news: Props): Promise<dynamic.CheckResult> {
    return checkSnapshotAutoConfig(news);
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return diffSnapshotAutoConfig(olds, news);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const state = stateOf(inputs);
    const api = client();
    const existing = await api.readConfig(state.name);
    if (existing && state.adopt !== true) {
      throw new Error(
        `snapshot configuration "${state.name}" already exists: set adopt: true to take it over, ` +
          "or choose another name (it is not overwritten)",
      );
    }
    await api.writeConfig(state.name, toWire(state), secretValues(state));
    return { id: state.name, outs: toPlainJson(state) as Props };
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const wire = await client().readConfig(id);
    // An empty id tells the engine the object is gone: only on a 404, never on an error.
    if (!wire) return { id: "", props: {} };
    const state = toPlainJson(fromWire(id, wire, stateOf(props ?? {}))) as Props;
    return { id, props: state, inputs: state };
  },

  async update(_id: string, _olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const state = stateOf(news);
    await client().writeConfig(state.name, toWire(state), secretValues(state));
    return { outs: toPlainJson(state) as Props };
  },

  async delete(id: string, _props: Props): Promise<void> {
    // A configuration already deleted outside Pulumi is the outcome delete wants.
    await client().deleteConfig(id);
  },
};
