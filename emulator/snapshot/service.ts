import { Router } from "../core/router";
import type { Mount } from "../core/server";
import { checkAccess, checkNamespace, DEFAULT_SNAPSHOT_TOKEN, type AccessRules, type SnapshotTokenGrant } from "./access";
import { NOT_FOUND_BODIES, unsupportedOperation, unsupportedPath, type NotFoundBody } from "./errors";
import type { EmulatorData } from "../savedData";
import { snapshotRoutes } from "./routes";
import { Snapshotter, type HeldConfig, type SnapshotStatusWire } from "./snapshotter";

export interface SnapshotEmulatorOptions {
  /** Accepted tokens and whether each has the sudo capability. Default: one sudo token, `emulator-snapshot-token`. */
  tokens?: Record<string, SnapshotTokenGrant>;
  /** Whether the service holds a license with automated snapshots. Default true. */
  licensed?: boolean;
  /**
   * Whether reads carry the credential fields. Default true: the spec's read shape carries every parameter of the
   * selected storage type. `false` leaves them out, as a service that hides credentials does; `"masked"` carries
   * each one set as the placeholder `"****"`, as a service that masks them does; `"identifiers"` leaves out the
   * secrets (`cloudA_secret_access_key`, `cloudA_session_token`, `cloudB_account_key`, `cloudC_service_account_key`)
   * and shows `cloudA_access_key_id`, as a service that hides secrets but shows what names them does (the account
   * name and the client id, which are no credentials, are shown under every value).
   */
  echoCredentials?: boolean | "masked" | "identifiers";
  /** Take snapshots on the interval. Default true; tests of the API alone may turn it off. */
  takeSnapshots?: boolean;
  /**
   * Take PUT on `/config/:name` as a synonym of POST, as services of this family do. Default false: the spec
   * lists only POST, and PUT is 405.
   */
  acceptPut?: boolean;
  /**
   * Take `GET /config?list=true` as a synonym of LIST, for clients that cannot send that method. Default false:
   * the spec lists with LIST only, and a GET of `/config` is 405.
   */
  acceptGetList?: boolean;
  /**
   * Take integer and boolean fields written as strings ("3", "true") in create/update bodies, as weakly typed
   * servers of this family do. Default false: JSON integers and booleans, as the spec types them (`interval`
   * takes an integer or a string either way).
   */
  acceptStringScalars?: boolean;
  /**
   * What a 404 for a configuration (or a list) the service does not hold carries. Default `"errors"`:
   * `{"errors": []}`, the service's own answer. The others are what a proxy or another mount in front of the
   * service may answer: `"empty"` (no body), `"emptyObject"` (`{}`), `"nullErrors"` (`{"errors": null}`),
   * `"blankError"` (`{"errors": [""]}`).
   */
  notFoundBody?: NotFoundBody;
  /**
   * Whether POST merges into a configuration it holds: keys the body leaves out keep their stored values, those of
   * another storage type included. Default false: POST replaces the configuration with the body (the spec says
   * POST "creates the named configuration or updates it", and its read shape carries only the selected storage
   * type's parameters). `true` is the other reading the spec allows.
   */
  postMerges?: boolean;
}

export { DEFAULT_SNAPSHOT_TOKEN };

/**
 * The automated snapshot configuration API, as the spec gives it, mounted under `/v1`. The modules beside this
 * one hold its parts: `routes.ts` (the endpoints), `access.ts` (namespace, token, sudo, license, checked before
 * every handler), `validation.ts` (create/update bodies, with `schema.ts` and `duration.ts`), `snapshotter.ts`
 * (snapshots on the interval) and `errors.ts` (the service's error bodies).
 */
export class SnapshotService {
  /** The configurations held, by name. Tests may read them; changes go through the API. */
  readonly configs = new Map<string, HeldConfig>();
  /** Accepted tokens; the gate reads this object on every request, so deleting a token revokes it. */
  private readonly tokens: Record<string, SnapshotTokenGrant>;
  private readonly router = new Router();
  private readonly snapshotter: Snapshotter;

  constructor(options: SnapshotEmulatorOptions = {}) {
    this.tokens = options.tokens ?? { [DEFAULT_SNAPSHOT_TOKEN]: { sudo: true } };
    const rules: AccessRules = { tokens: this.tokens, licensed: options.licensed !== false };
    this.snapshotter = new Snapshotter(options.takeSnapshots !== false, () =>
      JSON.stringify({ taken: new Date().toISOString(), configurations: [...this.configs.keys()] }),
    );
    const routes = snapshotRoutes({
      configs: this.configs,
      snapshotter: this.snapshotter,
      echoCredentials: options.echoCredentials === undefined ? true : options.echoCredentials,
      acceptPut: options.acceptPut === true,
      acceptGetList: options.acceptGetList === true,
      acceptStringScalars: options.acceptStringScalars === true,
      notFoundBody: notFoundBodyOf(options.notFoundBody),
      postMerges: options.postMerges === true,
    });
    for (const route of routes) {
      this.router.add(route.method, route.template, (req) => checkAccess(req, rules, route.sudo) ?? route.handle(req));
    }
  }

  mount(): Mount {
    return {
      prefix: "/v1",
      router: this.router,
      notFound: () => unsupportedPath(),
      methodNotAllowed: (req) => checkNamespace(req) ?? unsupportedOperation(),
    };
  }

  /** Stops every snapshot timer and waits for snapshots in progress. */
  close(): Promise<void> {
    return this.snapshotter.close(this.configs.values());
  }

  /** Holds `configs` (saved earlier) in place of what it holds, taking their snapshots on their intervals again. */
  restore(configs: EmulatorData["snapshot"]["configs"]): void {
    for (const held of this.configs.values()) this.snapshotter.unschedule(held);
    this.configs.clear();
    for (const { name, config, status } of structuredClone(configs)) {
      const held: HeldConfig = { config, status };
      this.configs.set(name, held);
      this.snapshotter.schedule(held);
    }
  }

  /** Takes a snapshot of the named configuration now (tests, demo). */
  async snapshotNow(name: string): Promise<SnapshotStatusWire | undefined> {
    const held = this.configs.get(name);
    if (!held) return undefined;
    await this.snapshotter.run(held);
    return held.status;
  }
}

function notFoundBodyOf(value: NotFoundBody | undefined): NotFoundBody {
  if (value === undefined) return "errors";
  if (!NOT_FOUND_BODIES.includes(value)) {
    throw new Error(
      `snapshot emulator: notFoundBody must be one of ${NOT_FOUND_BODIES.map((b) => JSON.stringify(b)).join(", ")}, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}
