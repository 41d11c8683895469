import type { HealthCheck, ServiceEndpoint } from '@limelight/widgets/api';
import type { SecretBox } from '../crypto/secretBox';
import type { RuntimesConfig } from './config';
import { waitingFleet, type ContainerSpec, type DeploymentReport, type FleetAdapter } from './fleet';
import { checkHttpHealth } from '../runtimes/http/health';
import { createHttpRuntime, HTTP_RUNTIME } from '../runtimes/http/httpRuntime';
import type { OwnAddress, UrlPolicy } from '../runtimes/http/urlPolicy';
import { createLocalDemoRuntime, LOCAL_DEMO, LOCAL_DEMO_SLOTS } from '../runtimes/local';
import { createModelRuntimes, LOCAL_MODEL, LOCAL_MODEL_SLOTS } from '../runtimes/models';
import { loadModelsConfig } from '../runtimes/models/config';
import type { Runtime, RuntimeSlots, SlotPool } from '../runtimes/runtime';

// Which runtime runs a service, and everything that depends on the answer, in one place
// (docs/architecture.md, "Runtimes"). Three kinds:
//
// - `local-demo`: the seeded services (no runtime row): the embedded demo runtimes, paced by
//   LOCAL_DEMO_STEP_MS. Always healthy, always runnable. Those with a real model installed here
//   (runtimes/models: lime-ocr, lime-voice, lime-cutout) run it instead, as runtime "local".
// - `http`: a publisher's service at its own base URL (runtimes/http), its secret headers
//   opened from the secret box, its URL checked against the URL policy on every call.
// - `container`: a publisher's image run by a FleetAdapter (fleet.ts). The adapter's status
//   decides whether runs are accepted; a run asks it for a running instance's URL (starting
//   one when scaled to zero) and then talks to it like the HTTP runtime does.
//
// Jobs (jobs/) ask the registry whether a service may run (`refusal`) and for its runtime
// (`runtimeFor`); publishing (publishing/) asks for health and deploys or stops containers.
// Neither reads another feature's tables: jobs receive `loadRunnable` (publishing/queries.ts).

export type RuntimeKind = 'local-demo' | 'http' | 'container';

/** A container run waits on an instance over the network: the I/O slot pool. */
export const CONTAINER_RUNTIME: RuntimeSlots = { name: 'container', pool: 'io' };

/**
 * The slot pool of every built-in runtime, as each declares it. The queue claims by the
 * `runtime` a job recorded, so it asks here rather than naming runtimes itself; a runtime not
 * listed (tests inject their own) runs in the local pool.
 */
const RUNTIME_SLOTS: readonly RuntimeSlots[] = [LOCAL_DEMO_SLOTS, LOCAL_MODEL_SLOTS, HTTP_RUNTIME, CONTAINER_RUNTIME];

/** The runtimes whose jobs run in the I/O slot pool (the claim, /metrics). */
export const IO_RUNTIMES: readonly string[] = RUNTIME_SLOTS.filter((slots) => slots.pool === 'io').map((slots) => slots.name);

/** The slot pool a job of `runtime` runs in. */
export const slotPoolOf = (runtime: string | null): SlotPool => RUNTIME_SLOTS.find((slots) => slots.name === runtime)?.pool ?? 'local';

/**
 * What computes a run, which decides its price (docs/jobs.md: metering): `demo` for the local
 * demo runtime (placeholder output, free), `cpu` for a real model on this machine's CPU (the CPU
 * tier), `gpu` for every other runtime (the GPU of the service's hosting record).
 */
export type Hardware = 'demo' | 'cpu' | 'gpu';

/** The hardware a job of `runtime` ran on: the runtime is the truth, never a list of services. */
export const hardwareOf = (runtime: string | null): Hardware => (runtime === LOCAL_DEMO ? 'demo' : runtime === LOCAL_MODEL ? 'cpu' : 'gpu');

/** Why a service on the demo runtime is one, as the catalogue shows it when no model says more. */
export const DEMO_REASON = 'Runs on the local demo runtime: placeholder output, not the real model';

/** What new runs of a service run on now, and why it is a demo (the catalogue's `demo_reason`). */
export interface RunsOn {
  hardware: Hardware;
  demoReason?: string;
}

/**
 * Jobs of some runtimes this process may take only for some services: a runner claims the
 * container jobs of the deployments it manages (docs/deploy.md, "Several runners").
 */
export interface ClaimScope {
  runtimes: readonly string[];
  services: readonly string[];
}

/** A service as running it needs: its endpoints and how it runs (publishing/queries.ts). */
export interface RunnableService {
  id: string;
  provider: string;
  model_category: unknown;
  endpoints: ServiceEndpoint[];
  is_public: boolean;
  created_by: string | null;
  /** `paused` services accept no runs. */
  status: string;
  /** Why the owner's plan holds this private service back after a downgrade (it accepts no runs), or undefined. */
  over_plan_limit?: string;
  /** How the owner runs it: absent for the seeded services, which run on the local demo. */
  runtime_type: string | null;
  base_url: string | null;
  headers_sealed: string | null;
  /** The path the owner's health check asks (service_runtimes.health_path); null for the default. */
  health_path?: string | null;
}

/** Reads a service that is not deleted, as running it needs; undefined when there is none. */
export type LoadRunnable = (serviceId: string) => Promise<RunnableService | undefined>;

/** Picks a runtime per service; tests inject one that replaces the built-in runtimes. */
export type RuntimeChooser = (service: RunnableService) => Runtime | undefined;

export interface RuntimeRegistry {
  kindOf(service: Pick<RunnableService, 'runtime_type' | 'base_url'>): RuntimeKind;
  /** Why a new run of the service is refused now (the caller reads it), or undefined. */
  refusal(service: RunnableService): Promise<string | undefined>;
  /** The runtime that runs a claimed job; undefined when none can any more. */
  runtimeFor(service: RunnableService): Runtime | undefined;
  /** What new runs of the service run on (the catalogue's demo badge, the price of its runs). */
  runsOn(service: Pick<RunnableService, 'id' | 'runtime_type' | 'base_url'>): RunsOn;
  /** The owner's health check of the service's runtime. */
  health(service: Pick<RunnableService, 'id' | 'runtime_type' | 'base_url' | 'headers_sealed' | 'health_path'>): Promise<HealthCheck>;
  /** Starts or changes a container deployment (after the owner saved it); the fleet's report. */
  deploy(spec: ContainerSpec): Promise<DeploymentReport>;
  /** Stops a service's container deployment (runtime removed or changed, service deleted). */
  stop(serviceId: string): Promise<void>;
  /** Which jobs of which runtimes this process may claim; null: all of them (fleet.ts, heldDeployments). */
  claimScope(): ClaimScope | null;
}

export interface RuntimeRegistryOptions {
  box: SecretBox;
  config: RuntimesConfig;
  /** Runs containers; default: none attached, every deployment waits for a runner. */
  fleet?: FleetAdapter;
  /** Replaces the built-in runtimes of every kind (tests); admission rules stay. */
  choose?: RuntimeChooser;
  fetch?: typeof fetch;
  /** The platform's own address, which no service URL may name (runtimes/http/urlPolicy.ts). */
  own?: OwnAddress;
}

/** A container deployment's status as a health check. */
function healthOfDeployment(report: DeploymentReport, checked_at: string): HealthCheck {
  const status =
    report.status === 'waiting_for_runner'
      ? 'waiting_for_runner'
      : report.status === 'running' || report.status === 'scaled_to_zero'
        ? 'ok'
        : 'failing';
  return { status, latency_ms: null, checked_at, detail: report.detail };
}

/** Why a container deployment in this state takes no runs, or undefined when it takes them. */
function deploymentRefusal(serviceId: string, report: DeploymentReport): string | undefined {
  switch (report.status) {
    case 'waiting_for_runner':
      return `${serviceId} is deployed as a container that is waiting for a GPU runner; it cannot run yet`;
    case 'failed':
      return `${serviceId}'s container deployment failed (${report.detail}); its owner must fix it before it can run`;
    case 'stopped':
      return `${serviceId}'s container deployment is stopped`;
    default:
      return undefined;
  }
}

export function createRuntimeRegistry(options: RuntimeRegistryOptions): RuntimeRegistry {
  const { box, config, choose } = options;
  const fleet = options.fleet ?? waitingFleet;
  const policy: UrlPolicy = { allowPrivateAddresses: config.allowPrivateServiceUrls, own: options.own };
  const localDemo = createLocalDemoRuntime({ stepDelayMs: config.localDemoStepMs });
  const models = createModelRuntimes(config.models ?? loadModelsConfig({}));
  const openHeaders = (sealed: string | null) => (sealed ? (JSON.parse(box.open(sealed)) as Record<string, string>) : {});

  const kindOf: RuntimeRegistry['kindOf'] = (service) =>
    service.runtime_type === 'container' ? 'container' : service.runtime_type === 'http' && service.base_url ? 'http' : 'local-demo';

  /** A container run: an instance's URL from the fleet, then the HTTP runtime against it. */
  const containerRuntime = (serviceId: string): Runtime => ({
    name: CONTAINER_RUNTIME.name,
    async run(input, ctx) {
      const base_url = await fleet.instanceUrl(serviceId, { signal: ctx.signal });
      // The URL comes from the fleet, not from the publisher: an instance on the runner's
      // private network is expected, so the private-address rule does not apply, and the job's
      // messages never name that address.
      return createHttpRuntime(
        { base_url },
        { policy: { allowPrivateAddresses: true }, followUps: 'own-origin', fetch: options.fetch, shownAs: 'the service’s container' },
      ).run(input, ctx);
    },
  });

  return {
    kindOf,
    async refusal(service) {
      if (kindOf(service) !== 'container') return undefined;
      return deploymentRefusal(service.id, await fleet.status(service.id));
    },
    runtimeFor(service) {
      if (choose) return choose(service);
      switch (kindOf(service)) {
        case 'http':
          return createHttpRuntime(
            { base_url: service.base_url!, headers: openHeaders(service.headers_sealed) },
            { policy, fetch: options.fetch },
          );
        case 'container':
          return fleet.runtimeFor?.(service.id) ?? containerRuntime(service.id);
        default:
          return models.runtimeFor(service.id) ?? localDemo;
      }
    },
    runsOn(service) {
      // Without building an HTTP runtime: only the local kind can be a demo or a CPU model.
      // The chooser (tests) is asked about the service as the catalogue read it.
      const runtime = choose
        ? choose(service as RunnableService)
        : kindOf(service) === 'local-demo'
          ? (models.runtimeFor(service.id) ?? localDemo)
          : undefined;
      const hardware = runtime ? hardwareOf(runtime.name) : 'gpu';
      if (hardware !== 'demo') return { hardware };
      // A seeded model service whose program is missing says which (runtimes/models).
      const model = models.status(service.id);
      return { hardware, demoReason: model && !model.available ? model.detail : DEMO_REASON };
    },
    async health(service) {
      const checked_at = new Date().toISOString();
      switch (kindOf(service)) {
        case 'http':
          return checkHttpHealth(
            { base_url: service.base_url!, health_path: service.health_path ?? null, headers: openHeaders(service.headers_sealed) },
            policy,
          );
        case 'container':
          return healthOfDeployment(await fleet.status(service.id), checked_at);
        default:
          return {
            status: 'ok',
            latency_ms: null,
            checked_at,
            detail: models.status(service.id)?.detail ?? 'Runs on the local demo runtime',
          };
      }
    },
    deploy: (spec) => fleet.deploy(spec),
    stop: (serviceId) => fleet.stop(serviceId),
    claimScope() {
      const held = fleet.heldDeployments?.();
      return held ? { runtimes: [CONTAINER_RUNTIME.name], services: held } : null;
    },
  };
}
