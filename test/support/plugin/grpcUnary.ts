// A gRPC client of unary calls over one HTTP/2 connection, without a client library: how the tests call a plugin.
import { connect, constants, type ClientHttp2Session } from "node:http2";

/** A protobuf message as google-protobuf generates it, and its class. */
export interface Message {
  serializeBinary(): Uint8Array;
}
export interface MessageClass<T> {
  deserializeBinary(bytes: Uint8Array): T;
}

const STATUS_NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/**
 * A call that ended with a status other than OK. Its message is the status message alone, as the engine shows a
 * provider's failure (`rpcerror.FromError`: the provider's own words, not `2 UNKNOWN: ...`); the status is `code`.
 */
export class GrpcError extends Error {
  /** The status's name, e.g. `UNKNOWN` (a provider's failure) or `UNAVAILABLE`. */
  readonly status: string;

  constructor(
    readonly code: number,
    readonly details: string,
    /** The `grpc-status-details-bin` trailer (a serialized `google.rpc.Status`), where the server sent one. */
    readonly statusDetails?: Uint8Array,
  ) {
    super(details);
    this.name = "GrpcError";
    this.status = STATUS_NAMES[code] ?? "UNKNOWN";
  }
}

/**
 * Unary gRPC calls over one cleartext HTTP/2 connection: a request is one length-prefixed message, the answer one
 * message and a `grpc-status` trailer. The engine is a Go program whose client costs little per call; this one
 * stays as light, so that in benchmarks the stand-in for the engine does not take the CPU the plugin needs
 * (@grpc/grpc-js spends about 2.5 times as much per call on its interceptor, retry and load-balancing layers).
 */
export class UnaryGrpcClient {
  private readonly session: ClientHttp2Session;
  private failure: Error | undefined;

  constructor(address: string) {
    this.session = connect(`http://${address}`);
    // A session error fails the calls in flight through their streams; it must not go unhandled here.
    this.session.on("error", (err) => (this.failure = err));
  }

  call<T>(path: string, request: Message, response: MessageClass<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const body = request.serializeBinary();
    const frame = Buffer.allocUnsafe(5 + body.length);
    frame[0] = 0; // not compressed
    frame.writeUInt32BE(body.length, 1);
    frame.set(body, 5);
    return new Promise<T>((resolveCall, rejectCall) => {
      let settled = false;
      const resolve = (value: T) => {
        settled = true;
        resolveCall(value);
      };
      const reject = (err: Error) => {
        settled = true;
        rejectCall(err);
      };
      const stream = this.session.request({
        [constants.HTTP2_HEADER_METHOD]: "POST",
        [constants.HTTP2_HEADER_PATH]: path,
        [constants.HTTP2_HEADER_CONTENT_TYPE]: "application/grpc",
        te: "trailers",
      });
      const chunks: Buffer[] = [];
      let status: string | undefined;
      let message = "";
      let details: Uint8Array | undefined;
      const statusOf = (headers: Record<string, unknown>) => {
        if (headers["grpc-status"] === undefined) return;
        status = String(headers["grpc-status"]);
        message = decodeURIComponent(String(headers["grpc-message"] ?? ""));
        // Binary metadata travels base64-encoded (padding may be left out).
        const bin = headers["grpc-status-details-bin"];
        if (typeof bin === "string" && bin !== "") details = Buffer.from(bin, "base64");
      };
      // A failed call may answer "trailers-only": the status comes with the response headers.
      stream.on("response", statusOf);
      stream.on("trailers", statusOf);
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", reject);
      // A connection lost mid-call closes the stream without an end.
      stream.on("close", () => settled || reject(new GrpcError(14, `the connection closed before ${path} answered`)));
      stream.on("end", () => {
        if (status === undefined) return reject(new GrpcError(2, `no grpc-status from the server for ${path}`));
        if (status !== "0") return reject(new GrpcError(Number(status), message, details));
        const answer = Buffer.concat(chunks);
        if (answer.length < 5 || answer[0] !== 0) return reject(new GrpcError(13, `unexpected answer framing for ${path}`));
        resolve(response.deserializeBinary(answer.subarray(5, 5 + answer.readUInt32BE(1))));
      });
      stream.end(frame);
    });
  }

  /** Drops the connection; calls still in flight fail. */
  close(): void {
    this.session.destroy();
  }
}
