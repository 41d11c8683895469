import { afterAll, beforeAll } from 'vitest';
import type { PricingServer } from '../../src/api';
import type { ContainerSpec, DeploymentReport, FleetAdapter } from '../../reference-app/server/hosting';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import { apiClients, PUBLISHER, signedIn } from './helpers';

// A platform server with container hosting but no engine, for the tests of what the platform
// asks of its runner (docs/publishing.md, "Container deployments and the runner interface"): the
// fleet seam (hosting/fleet.ts) is a stand-in that records every spec it is asked to deploy and
// answers that it runs, so saving a container runtime succeeds and the test reads what the runner
// would have been given. Runs themselves need a real runner (test/integration/hosting/).

/** What the stand-in answers for every deployment: one healthy instance. */
const RUNNING: DeploymentReport = { status: 'running', message: 'Healthy', detail: '1 instance running', instances: 1 };

/**
 * A runner's fleet that records each deploy in `deployed` (oldest first) and answers running. It
 * has `close()`, so it also serves as a LeasedFleet's local runner; it has no instance to run on.
 */
export function recordingFleet(): { fleet: FleetAdapter & { close(): Promise<void> }; deployed: ContainerSpec[] } {
  const deployed: ContainerSpec[] = [];
  const fleet: FleetAdapter & { close(): Promise<void> } = {
    name: 'recording',
    async deploy(spec) {
      deployed.push(spec);
      return RUNNING;
    },
    async status() {
      return RUNNING;
    },
    async instanceUrl() {
      throw new Error('no runs here');
    },
    async stop() {},
    async close() {},
  };
  return { fleet, deployed };
}

export interface RecordingPlatform {
  /** Every spec the server's fleet was asked to deploy, oldest first; usable at once. */
  readonly deployed: ContainerSpec[];
  /** The server, the seeded publisher's token and the GPU offers: set before the file's tests. */
  server: PlatformTestServer;
  token: string;
  /** GET /v1/model_management/pricing_servers as the server answers it. */
  gpuOffers: PricingServer[];
  /** The first GPU offer's id, for a runtime whose offer the test does not look at. */
  gpu: string;
}

/**
 * Starts a server of the file's own on a recordingFleet() before the file's tests, signs the
 * seeded publisher in (Pro plan: public and private services) and reads the GPU offers; closes the
 * server after them. `env` is the server's extra environment (e.g. LIMELIGHT_SECRET_KEY). Call it
 * once at the top of the file: a beforeAll the file adds afterwards runs once the server is up, an
 * afterAll before it is closed (vitest's default hook order).
 */
export function recordingPlatform(options: { env?: Record<string, string> } = {}): RecordingPlatform {
  const { fleet, deployed } = recordingFleet();
  const platform = { deployed } as RecordingPlatform;
  beforeAll(async () => {
    platform.server = await startPlatformServer({ fleet, env: options.env });
    platform.token = (await signedIn(platform.server, PUBLISHER)).session.access_token;
    const offers = await apiClients(platform.server, platform.token).modelManagement.pricingServers();
    if (!offers.ok) throw new Error(`GET pricing_servers: ${offers.error}`);
    platform.gpuOffers = offers.data;
    platform.gpu = offers.data[0]!.id;
  });
  afterAll(async () => {
    await platform.server?.close();
  });
  return platform;
}
