import type { Registration } from "../engine";

/**
 * A dynamic provider that does nothing and sends no request: run through the same plugin, engine driver and
 * program, it measures the plugin's own cost per operation (gRPC, protobuf, the plugin's code), against which
 * the cost of ours is read. Its diff reports a change when any argument changed, so a no-op `up` stays a no-op.
 */
export const NULL_PROVIDER_TEXT = `exports.handler = function () {
  const changed = (olds, news) => Object.keys(news).some((k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
  return {
    check: async (olds, news) => ({ inputs: news }),
    diff: async (id, olds, news) => ({ changes: changed(olds, news) }),
    create: async (news) => ({ id: String(news.name ?? "null"), outs: news }),
    read: async (id, props) => ({ id, props }),
    update: async (id, olds, news) => ({ outs: news }),
    delete: async () => {},
  };
};
`;

/** The same program, every resource served by the null provider. */
export function withNullProvider(program: Registration[]): Registration[] {
  return program.map((reg) => ({ ...reg, inputs: { ...reg.inputs, __provider: NULL_PROVIDER_TEXT } }));
}
