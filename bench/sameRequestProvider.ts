import type { Registration } from "../engine";

/**
 * A dynamic provider that sends exactly the requests ours sends, and nothing more: the same methods, paths,
 * headers and JSON bodies, each answer's body parsed (a client has to read the ids and the documents). No
 * validation, defaults, retries, pacing, redaction or error handling. Its CPU per operation is what any provider
 * pays that speaks these APIs over undici; ours is read against it as well as against the bare GETs.
 */
export const SAME_REQUEST_PROVIDER_TEXT = `exports.handler = function () {
  const Agent = require("undici/lib/dispatcher/agent");
  const request = require("undici/lib/api/api-request");
  const agent = new Agent({ connections: 128 });
  const config = {};
  const send = async (base, token, method, path, body) => {
    const headers = base === "snapshot"
      ? { "x-service-token": token, accept: "application/json" }
      : { authorization: "Bearer " + token, accept: "application/vnd.api+json" };
    if (body !== undefined) headers["content-type"] = base === "snapshot" ? "application/json" : "application/vnd.api+json";
    const res = await request.call(agent, {
      origin: config[base + ":address"],
      path: (base === "snapshot" ? "/v1" : "/api/v2") + path,
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return text ? JSON.parse(text) : undefined;
  };
  const snapshot = (method, name, body) => send("snapshot", config["snapshot:token"], method, "/sys/storage/raft/snapshot-auto/config/" + name, body);
  const runtask = (method, path, body) => send("runtask", config["runtask:token"], method, path, body);
  const wire = (n) => ({ interval: n.interval, retain: n.retain, path_prefix: n.pathPrefix, file_prefix: n.filePrefix, storage_type: n.storageType, cloudC_gcs_bucket: n.cloudCGcsBucket });
  const task = (n) => ({ data: { type: "tasks", attributes: { name: n.name, url: n.url, description: n.description, category: "task", enabled: true } } });
  const association = (n, withTask) => ({ data: { type: "workspace-tasks", attributes: { "enforcement-level": n.enforcementLevel, stages: ["post_plan"] }, relationships: withTask ? { task: { data: { id: n.taskId, type: "tasks" } } } : undefined } });
  const kind = (n) => (n.storageType !== undefined ? "snapshot" : n.workspaceId !== undefined ? "association" : "task");
  const changed = (olds, news) => Object.keys(news).some((k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
  return {
    configure: async (req) => {
      for (const key of ["snapshot:address", "snapshot:token", "runtask:address", "runtask:token", "runtask:organization"]) config[key] = req.config.get(key);
    },
    check: async (olds, news) => ({ inputs: news }),
    diff: async (id, olds, news) => ({ changes: changed(olds, news) }),
    create: async (news) => {
      switch (kind(news)) {
        case "snapshot":
          await snapshot("GET", news.name);
          await snapshot("POST", news.name, wire(news));
          return { id: news.name, outs: news };
        case "task": {
          const doc = await runtask("POST", "/organizations/" + config["runtask:organization"] + "/tasks", task(news));
          return { id: doc.data.id, outs: { ...news, taskId: doc.data.id } };
        }
        default: {
          const doc = await runtask("POST", "/workspaces/" + news.workspaceId + "/tasks", association(news, true));
          return { id: doc.data.id, outs: { ...news, workspaceTaskId: doc.data.id } };
        }
      }
    },
    read: async (id, props) => ({ id, props }),
    update: async (id, olds, news) => {
      switch (kind(news)) {
        case "snapshot":
          await snapshot("POST", news.name, wire(news));
          return { outs: news };
        case "task":
          await runtask("PATCH", "/tasks/" + id, task(news));
          return { outs: { ...news, taskId: id } };
        default:
          await runtask("PATCH", "/workspaces/" + news.workspaceId + "/tasks/" + id, association(news, false));
          return { outs: { ...news, workspaceTaskId: id } };
      }
    },
    delete: async (id, props) => {
      switch (kind(props)) {
        case "snapshot":
          return void (await snapshot("DELETE", id));
        case "task":
          return void (await runtask("DELETE", "/tasks/" + id));
        default:
          return void (await runtask("DELETE", "/workspaces/" + props.workspaceId + "/tasks/" + id));
      }
    },
  };
};
`;

/** The same program, every resource served by the same-request provider. */
export function withSameRequestProvider(program: Registration[]): Registration[] {
  return program.map((reg) => ({ ...reg, inputs: { ...reg.inputs, __provider: SAME_REQUEST_PROVIDER_TEXT } }));
}
