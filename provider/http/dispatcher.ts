import type { Agent, Dispatcher } from "undici";
import { undici } from "./undici";
import { boundedConnector } from "./connector";
import { tlsConnectOptions, tlsKey, type TlsSettings } from "./tls";

/**
 * The engine runs every dynamic resource of a deployment through one plugin process and calls it in parallel
 * (`pulumi up --parallel`, default unbounded). One keep-alive pool per process, sized above that parallelism,
 * keeps connections warm across operations instead of opening one per request.
 */
export const POOL_CONNECTIONS_PER_ORIGIN = 128;

/** A TLS handshake takes a few round trips; one that has not finished in this is not coming (see connector.ts). */
export const TLS_HANDSHAKE_MS = 5_000;

const agents = new Map<string, Agent>();

export function sharedDispatcher(tls: TlsSettings = {}): Dispatcher {
  const key = tlsKey(tls);
  let agent = agents.get(key);
  if (!agent) {
    agent = new (undici().Agent)({
      connections: POOL_CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connect: boundedConnector(tlsConnectOptions(tls), { connectMs: 10_000, handshakeMs: TLS_HANDSHAKE_MS }),
    });
    agents.set(key, agent);
  }
  return agent;
}

/** Closes every pooled connection (tests, and short-lived CLI processes that want to exit promptly). */
export async function closeSharedDispatchers(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close()));
}
