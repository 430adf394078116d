import * as pulumi from "@pulumi/pulumi";

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/**
 * Sets Pulumi's mocks so that every registered resource is recorded (with the real `__provider` text among its
 * inputs) and gets the id `<name>-id`. Import the SDK after calling it, as the SDK requires.
 */
export function recordRegistrations(): Registered[] {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
  return registered;
}

/** The value of an Output, once known. */
export const valueOf = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));
