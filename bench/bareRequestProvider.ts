import type { Registration } from "../engine";

/**
 * A dynamic provider that sends the same number of requests per operation as ours (a snapshot configuration's
 * create two, every other create, update and delete one) and does nothing else: each is a bare GET through
 * undici's `Dispatcher#request` on a keep-alive agent (loaded as ours loads them), answered 404 by the
 * emulator; no validation, no retry policy, no documents. Run through the same plugin, driver and program, its plugin CPU per operation is what any provider
 * that makes those requests with undici pays; ours is read against it.
 */
export const BARE_REQUEST_PROVIDER_TEXT = `exports.handler = function () {
  const Agent = require("undici/lib/dispatcher/agent");
  const request = require("undici/lib/api/api-request");
  const agent = new Agent({ connections: 128 });
  let address, token;
  const get = async () => {
    const res = await request.call(agent, { origin: address, path: "/api/v2/tasks/task-none", method: "GET", headers: { authorization: "Bearer " + token } });
    await res.body.text();
  };
  const changed = (olds, news) => Object.keys(news).some((k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
  return {
    configure: async (req) => {
      address = req.config.get("runtask:address");
      token = req.config.get("runtask:token");
    },
    check: async (olds, news) => ({ inputs: news }),
    diff: async (id, olds, news) => ({ changes: changed(olds, news) }),
    create: async (news) => {
      if (news.storageType !== undefined) await get();
      await get();
      return { id: String(news.name ?? "bare"), outs: news };
    },
    read: async (id, props) => ({ id, props }),
    update: async (id, olds, news) => {
      await get();
      return { outs: news };
    },
    delete: async () => {
      await get();
    },
  };
};
`;

/** The same program, every resource served by the bare-request provider. */
export function withBareRequestProvider(program: Registration[]): Registration[] {
  return program.map((reg) => ({ ...reg, inputs: { ...reg.inputs, __provider: BARE_REQUEST_PROVIDER_TEXT } }));
}
