/** The emulator process's entry (see emulatorProcess.ts): starts the emulator and answers over IPC. */
import { startEmulator, type EmulatorOptions } from "../emulator";
import type { EmulatorProcessAnswer, EmulatorProcessRequest } from "./emulatorProcess";

const send = (answer: EmulatorProcessAnswer) => process.send!(answer);

startEmulator(JSON.parse(process.argv[2] ?? "{}") as EmulatorOptions).then(
  (emulator) => {
    process.on("message", (request: EmulatorProcessRequest) => {
      if (request.kind === "reset") emulator.requests.reset();
      const { user, system } = process.cpuUsage();
      send({ id: request.id, stats: { requests: emulator.requests.total(), cpuMs: (user + system) / 1000 } });
    });
    process.on("SIGTERM", () => void emulator.close().then(() => process.exit(0)));
    // Never outlive the benchmark that started it.
    process.on("disconnect", () => process.exit(0));
    send({ id: 0, url: emulator.url });
  },
  (err: unknown) => {
    send({ id: 0, error: String(err) });
    process.exit(1);
  },
);
