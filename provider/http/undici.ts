import type { Agent, buildConnector, Dispatcher, errors, Pool } from "undici";
import { persistCompileCache } from "../common/compileCache";

/**
 * The parts of undici the HTTP core uses, loaded on first use: only the modules behind `Agent` and
 * `Dispatcher#request`, or the whole package should a release move them. Why: docs/design.md, "Start-up".
 */
export interface UndiciParts {
  Agent: typeof Agent;
  /** A pool of connections to one origin: to a proxy, for its CONNECT tunnels and the requests it forwards. */
  Pool: typeof Pool;
  /**
   * `Dispatcher#request`: one request on the given dispatcher (a pool of keep-alive connections, or anything that
   * dispatches to one: `Dispatcher#request` calls nothing of its dispatcher but `dispatch`).
   */
  request(dispatcher: Pick<Dispatcher, "dispatch">, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  /** `Dispatcher#connect`: a CONNECT request, answered with its status and, on success, the tunnel's socket. */
  connect(dispatcher: Pick<Dispatcher, "dispatch">, options: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData>;
  SocketError: typeof errors.SocketError;
  /** The connector undici's agents use, to wrap (see connector.ts). */
  buildConnector: typeof buildConnector;
}

let loaded: UndiciParts | undefined;
let loadedAs: "parts" | "whole" | undefined;

export function undici(): UndiciParts {
  if (!loaded) {
    const parts = loadParts();
    loadedAs = parts ? "parts" : "whole";
    loaded = parts ?? loadWhole();
    persistCompileCache();
  }
  return loaded;
}

/** How undici was loaded, for tests: `parts` unless a release moved the modules. */
export function undiciLoadedAs(): "parts" | "whole" | undefined {
  return loadedAs;
}

type RequestFunction = (this: Pick<Dispatcher, "dispatch">, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
type ConnectFunction = (this: Pick<Dispatcher, "dispatch">, options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;

function loadParts(): UndiciParts | undefined {
  try {
    const AgentClass = require("undici/lib/dispatcher/agent") as unknown;
    const PoolClass = require("undici/lib/dispatcher/pool") as unknown;
    const request = require("undici/lib/api/api-request") as unknown;
    const connect = require("undici/lib/api/api-connect") as unknown;
    const { SocketError } = require("undici/lib/core/errors") as { SocketError?: unknown };
    const connector = require("undici/lib/core/connect") as unknown;
    if ([AgentClass, PoolClass, request, connect, SocketError, connector].some((part) => typeof part !== "function")) return undefined;
    return {
      Agent: AgentClass as typeof Agent,
      Pool: PoolClass as typeof Pool,
      request: (dispatcher, options) => (request as RequestFunction).call(dispatcher, options),
      connect: (dispatcher, options) => (connect as ConnectFunction).call(dispatcher, options),
      SocketError: SocketError as typeof errors.SocketError,
      buildConnector: connector as typeof buildConnector,
    };
  } catch {
    return undefined;
  }
}

function loadWhole(): UndiciParts {
  const whole = require("undici") as typeof import("undici");
  return {
    Agent: whole.Agent,
    Pool: whole.Pool,
    request: (dispatcher, options) => (whole.Dispatcher.prototype.request as RequestFunction).call(dispatcher, options),
    connect: (dispatcher, options) => (whole.Dispatcher.prototype.connect as ConnectFunction).call(dispatcher, options),
    SocketError: whole.errors.SocketError,
    buildConnector: whole.buildConnector,
  };
}
