import { startEmulator } from "./emulator";
(async () => {
  const e = await startEmulator();
  const { execSync } = require("child_process");
  console.log(execSync(`curl -si -X LIST -H 'x-service-token: emulator-snapshot-token' ${e.url}/v1/sys/storage/raft/snapshot-auto/config`).toString());
  await e.close();
})();
