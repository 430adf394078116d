import type { ProviderProcess } from "../../test/support/plugin/providerProcess";
import type { ResourceProviderClient } from "./resourceProviderClient";

/** A running provider plugin: its process, and a client of the ResourceProvider service it serves. */
export class ProviderPlugin {
  constructor(
    readonly process: ProviderProcess,
    readonly client: ResourceProviderClient,
  ) {}

  /** Everything the plugin printed so far. */
  get output(): string {
    return this.process.output;
  }

  async stop(): Promise<void> {
    this.client.close();
    await this.process.stop();
  }
}

/**
 * Starts the provider plugin for one command (every `pulumi` command starts its plugins afresh). Launchers differ
 * only in how the process is started; what is said to it is the same gRPC service. The dynamic provider plugin
 * (dynamicProviderPlugin.ts) is one; a native plugin executable, started as `<executable> <engine-address>` and
 * printing its port the same way, is another launcher around the same ProviderProcess and client.
 */
export interface PluginLauncher {
  start(): Promise<ProviderPlugin>;
}
