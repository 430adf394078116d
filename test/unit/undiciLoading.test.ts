import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { undici, undiciLoadedAs } from "../../provider/http/undici";

describe("undici, loaded in part", () => {
  it("loads just the agent and the request call, and they serve a request", async () => {
    const server = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { Agent, request } = undici();
    // The full package is the fallback for a release that moved these modules: slower to load, so noticed here.
    expect(undiciLoadedAs()).toBe("parts");
    const agent = new Agent();
    try {
      const res = await request(agent, { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, path: "/", method: "GET" });
      expect(res.statusCode).toBe(200);
      expect(await res.body.text()).toBe("ok");
    } finally {
      await agent.close();
      server.close();
    }
  });
});
