import { connect, type AddressInfo } from "node:net";
import { createServer } from "node:tls";
import type { Issued } from "./certificates";

/**
 * A service over HTTPS: TLS with `certificate` on a loopback port, each connection passed on, bytes as they are, to
 * the plain-HTTP port `target` (the emulator), as a load balancer that ends TLS does.
 */
export async function tlsFront(target: number, certificate: Issued): Promise<{ port: number; close(): Promise<void> }> {
  const open = new Set<{ destroy(): void }>();
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (client) => {
    const upstream = connect(target, "127.0.0.1");
    open.add(client);
    client.once("close", () => open.delete(client));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
