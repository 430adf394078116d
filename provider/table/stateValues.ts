import type { FieldTable } from "./field";

type Props = Record<string, unknown>;

/**
 * What a state holds of a resource's arguments: its outputs, with each write-only or secret argument they lack taken
 * from its inputs. A value the service never returns (the HMAC key; a credential a service hides or masks) reaches
 * the outputs through the provider's own create, update and refresh, which carry it over; an import records it in
 * the inputs alone: `pulumi import --file` with `inputs` has the engine fill the Read's inputs with them and take the
 * outputs from the Read (pulumi/pulumi v3.274.1, pkg/resource/deploy/step.go, `ImportStep.Apply` and
 * `mergeSuppliedProperties`). Diff, update and refresh compare with this, so that a program that gives the imported
 * value shows no change and sends nothing, and one that drops it clears it.
 */
export function stateValues(fields: FieldTable, outputs: Props, inputs: Props): Props {
  let state = outputs;
  for (const [arg, field] of Object.entries(fields)) {
    if (!(field.writeOnly || field.secret) || outputs[arg] !== undefined || inputs[arg] === undefined || inputs[arg] === null) continue;
    if (state === outputs) state = { ...outputs };
    state[arg] = inputs[arg];
  }
  return state;
}
