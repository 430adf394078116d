import type * as pulumi from "@pulumi/pulumi";

/**
 * The provider objects handed to `dynamic.Resource`. Their text is serialized into every resource's state, so
 * they hold nothing but the kind of resource: each method loads the installed package's provider entry at call
 * time and delegates. Credentials are read there, from the stack config or the environment, never from here.
 */
export function providerShim(kind: "snapshotAutoConfig" | "runTask" | "workspaceRunTask"): pulumi.dynamic.ResourceProvider {
  const load = () => {
    try {
      return require("pulumi-snapshot-runtask/provider");
    } catch (err) {
      throw new Error(`pulumi-snapshot-runtask must be installed in the program's directory (npm install pulumi-snapshot-runtask): ${err}`);
    }
  };
  return {
    configure: async (req) => load().configure(req.config),
    check: (olds, news) => load().providers[kind].check(olds, news),
    diff: (id, olds, news) => load().providers[kind].diff(id, olds, news),
    create: (inputs) => load().providers[kind].create(inputs),
    read: (id, props) => load().providers[kind].read(id, props),
    update: (id, olds, news) => load().providers[kind].update(id, olds, news),
    delete: (id, props) => load().providers[kind].delete(id, props),
  };
}
