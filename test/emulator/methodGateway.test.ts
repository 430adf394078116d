import { RequestRewriter } from "../../emulator/core/methodGateway";

// A body that itself looks like a LIST request: only correct framing leaves it alone.
const trap = "\r\n\r\nLIST /v1/c HTTP/1.1\r\n\r\n";
const stream = [
  "LIST /v1/a HTTP/1.1\r\nHost: x\r\n\r\n",
  `POST /v1/b HTTP/1.1\r\nContent-Length: ${trap.length}\r\n\r\n${trap}`,
  "PUT /v1/d HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nLIST \r\n3\r\nabc\r\n0\r\n\r\n",
  "LIST /v1/e?list=true HTTP/1.1\r\n\r\n",
].join("");

const expected = stream
  .replace("LIST /v1/a HTTP/1.1\r\n", "GET /v1/a HTTP/1.1\r\nx-original-method: LIST\r\n")
  .replace("LIST /v1/e?list=true HTTP/1.1\r\n", "GET /v1/e?list=true HTTP/1.1\r\nx-original-method: LIST\r\n");

describe("RequestRewriter", () => {
  test("rewrites LIST request lines only, whatever the chunk boundaries", () => {
    for (const size of [1, 2, 3, 7, 16, 1000]) {
      const rewriter = new RequestRewriter();
      const bytes = Buffer.from(stream, "latin1");
      const out: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) out.push(rewriter.push(bytes.subarray(i, i + size)));
      expect(Buffer.concat(out).toString("latin1")).toBe(expected);
    }
  });
});
