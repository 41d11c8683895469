import { afterAll, beforeAll } from 'vitest';
import { registryUnavailableReason, startRegistry, type TestRegistry } from '../../../scripts/registry.mjs';
import { type DeploymentSpec, type RegistryAuth, limitsFor, type ContainerSpec } from '../../../reference-app/server/hosting';
import { engineSkipReason, pushImage, FIXTURE_IMAGE, startTestEngine, type TestEngine } from '../../setup/containerEngine';

// The one setup of the container-hosting tests (docs/publishing.md, "Running containers"): the
// real engine (Podman's Docker API on a private socket), a real htpasswd registry, the fixture
// image pushed to it, and afterwards every container, network and pulled image of the file gone.
// Each file calls useHosting() once inside its describe; the specs below are the small service
// every test deploys, so a test names only what it changes.

/** Why the hosting tests cannot run here (with how to make them run), or null. */
export const hostingSkipReason = (): string | null => engineSkipReason() ?? registryUnavailableReason();

export interface Hosting {
  t: TestEngine;
  registry: TestRegistry;
  /** The fixture image in the registry, e.g. 127.0.0.1:5123/greeter:1. */
  image: string;
  /** The registry's credential as the engine takes it. */
  auth: RegistryAuth;
}

/**
 * Starts the engine and registry before the file's tests and removes all after them. `name` is
 * the fixture's name in the registry; `images` are more local images the file makes, removed too.
 * Hooks run in reverse order (vitest's default "stack"), so a server a file starts after this
 * call is closed before the engine stops.
 */
export function useHosting(name: string, options: { images?: string[] } = {}): Hosting {
  const hosting = {} as Hosting;
  beforeAll(async () => {
    hosting.t = await startTestEngine();
    hosting.registry = await startRegistry();
    hosting.image = pushImage(hosting.registry, FIXTURE_IMAGE, name);
    const { host, username, password } = hosting.registry;
    hosting.auth = { username, password, serveraddress: host };
  }, 180_000);
  afterAll(async () => {
    // The pulled copies go too, so runs do not pile up images in the engine.
    for (const image of [hosting.image, ...(options.images ?? [])].filter(Boolean)) {
      await hosting.t?.engine.docker
        .getImage(image)
        .remove({ force: true })
        .catch(() => undefined);
    }
    await hosting.registry?.stop();
    await hosting.t?.stop();
  }, 60_000);
  return hosting;
}

/** The environment of a platform process whose runner deploys from the test registry. */
export const runnerEnv = (h: Hosting): Record<string, string> => ({
  CONTAINER_RUNNER: 'docker',
  DOCKER_HOST: h.t.dockerHost,
  CONTAINER_MEMORY_MB: '256',
  CONTAINER_REGISTRIES: h.registry.host,
});

/** A Deployment of the fixture (hosting/deployment.ts): 256 MB, scale to zero after 1 s. */
export const deploymentSpec = (h: Hosting, name: string, overrides: Partial<DeploymentSpec> = {}): DeploymentSpec => ({
  id: h.t.deploymentId(name),
  image: h.image,
  auth: h.auth,
  port: 8080,
  healthPath: '/openapi.json',
  instance: { limits: limitsFor({ memoryMb: 256 }), gpu: 'none' },
  minInstances: 0,
  maxInstances: 2,
  idleTimeoutS: 1,
  ...overrides,
});

/** The same service as the fleet seam takes it (hosting/fleet.ts). */
export const containerSpec = (h: Hosting, name: string, overrides: Partial<ContainerSpec> = {}): ContainerSpec => ({
  serviceId: h.t.deploymentId(name),
  image: h.image,
  registryAuth: { registry: h.registry.host, username: h.registry.username, password: h.registry.password },
  gpu: '',
  minInstances: 1,
  maxInstances: 4,
  idleTimeoutS: 60,
  port: 8080,
  healthPath: '/openapi.json',
  ...overrides,
});
