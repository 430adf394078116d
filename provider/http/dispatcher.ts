import type { Dispatcher } from "undici";
import { undici } from "./undici";
import { boundedConnector, type ConnectBounds } from "./connector";
import { proxyDispatcher, type ClosableDispatcher, type PoolSizing } from "./proxyDispatcher";
import type { ProxyRoute } from "./proxyRoute";
import { tlsConnectOptions, tlsKey, type TlsSettings } from "./tls";

/**
 * The engine runs every dynamic resource of a deployment through one plugin process and calls it in parallel
 * (`pulumi up --parallel`, default unbounded). One keep-alive pool per process, sized above that parallelism,
 * keeps connections warm across operations instead of opening one per request.
 */
export const POOL_CONNECTIONS_PER_ORIGIN = 128;

/** A TLS handshake takes a few round trips; one that has not finished in this is not coming (see connector.ts). */
export const TLS_HANDSHAKE_MS = 5_000;

/** A TCP connection, or a proxy's answer to a CONNECT, that has not come in this is not coming. */
export const CONNECT_MS = 10_000;

const SIZING: PoolSizing = { connections: POOL_CONNECTIONS_PER_ORIGIN, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 };
const BOUNDS: ConnectBounds = { connectMs: CONNECT_MS, handshakeMs: TLS_HANDSHAKE_MS };

const agents = new Map<string, ClosableDispatcher>();

/** The pool of the service's TLS settings, direct or through `proxy`: one per distinct setting, shared by every client. */
export function sharedDispatcher(tls: TlsSettings = {}, proxy?: ProxyRoute): Dispatcher {
  const key = JSON.stringify([tlsKey(tls), proxy?.origin ?? "", proxy?.authorization ?? ""]);
  let agent = agents.get(key);
  if (!agent) {
    agent = proxy
      ? proxyDispatcher(proxy, tls, SIZING, BOUNDS)
      : new (undici().Agent)({ ...SIZING, connect: boundedConnector(tlsConnectOptions(tls), BOUNDS) });
    agents.set(key, agent);
  }
  return agent as Dispatcher;
}

/** Closes every pooled connection (tests, and short-lived CLI processes that want to exit promptly). */
export async function closeSharedDispatchers(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close()));
}
