import { Router, type EmulatorRequest } from "../core/router";
import type { Mount } from "../core/server";
import { checkAccess, checkNamespace, DEFAULT_SNAPSHOT_TOKEN, type AccessRules, type SnapshotTokenGrant } from "./access";
import { badRequest, NOT_FOUND_BODIES, unsupportedOperation, unsupportedPath, type NotFoundBody } from "./errors";
import type { EmulatorData } from "../savedData";
import { headerOf, SPEC_NAMES, type Names } from "./names";
import { snapshotRoutes } from "./routes";
import { VENDOR_NAMES } from "./vendorNames";
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
   * Answer as the spec's letter says where the real service takes more: POST and LIST only (PUT, and a GET of
   * `/config`, are 405). Default false: PUT and `GET ?list=true` are taken too, as the real service takes them and
   * its vendor's client sends them. `acceptPut` and `acceptGetList`, where given, win over it.
   */
  letterOfSpec?: boolean;
  /**
   * Take PUT on `/config/:name` as a synonym of POST. Default true: the real service takes PUT exactly as POST, and
   * its vendor's client writes with PUT. `false` (`letterOfSpec`): the spec lists only POST, and PUT is 405.
   */
  acceptPut?: boolean;
  /**
   * Take `GET /config?list=true` as a synonym of LIST. Default true: the real service takes it, and its vendor's
   * client lists so, never with LIST. `false` (`letterOfSpec`): the spec lists with LIST only, and a GET of `/config`
   * is 405.
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
   * Also speak the vendor's names (`vendorNames.ts`) to a client that sends the vendor's token header
   * (`X-Vault-Token`): its namespace header, storage types (`aws-s3`), storage fields (`aws_s3_bucket`) and default file
   * prefix (`vault-snapshot`), in what it writes, in what it reads and in the messages it gets; so that the vendor's own
   * client, and the tools built on it, run against the emulator unchanged. A request with `X-Service-Token` speaks the
   * spec's names either way, and the configurations are one: each written in either is read in both. Default false:
   * the spec's names only.
   */
  vendorNames?: boolean;
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
      acceptPut: options.acceptPut ?? options.letterOfSpec !== true,
      acceptGetList: options.acceptGetList ?? options.letterOfSpec !== true,
      acceptStringScalars: options.acceptStringScalars === true,
      notFoundBody: notFoundBodyOf(options.notFoundBody),
      postMerges: options.postMerges === true,
    });
    const namesOf = (req: EmulatorRequest): Names =>
      options.vendorNames === true && headerOf(req, VENDOR_NAMES.tokenHeader) !== undefined ? VENDOR_NAMES : SPEC_NAMES;
    this.namesOf = namesOf;
    for (const route of routes) {
      this.router.add(route.method, route.template, (req) => {
        const names = namesOf(req);
        return checkAccess(req, rules, route.sudo, names) ?? route.handle(req, names);
      });
    }
  }

  /** The names a request speaks: the vendor's where `vendorNames` is on and it sends the vendor's token header. */
  private readonly namesOf: (req: EmulatorRequest) => Names;

  mount(): Mount {
    return {
      prefix: "/v1",
      router: this.router,
      notFound: () => unsupportedPath(),
      methodNotAllowed: (req) => checkNamespace(req, this.namesOf(req)) ?? unsupportedOperation(),
      badPath: (_req, detail) => badRequest([detail]),
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
