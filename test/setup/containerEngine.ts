// The real container engine for the hosting tests and benchmark (docs/publishing.md, "Running
// containers"): Podman's Docker-compatible API on a private socket, the fixture image built
// locally, and a cleanup that removes every container and network this process created (the
// deployment ids carry a per-process prefix, so parallel test files never remove each other's).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { podmanEnv, podmanUnavailableReason, startPodmanService } from '../../scripts/engine.mjs';
import { buildFixtureImage, FIXTURE_IMAGE } from '../../scripts/fixture-image.mjs';
import { ContainerEngine, DEPLOYMENT_LABEL, MANAGED_LABEL } from '../../reference-app/server/hosting';

export { FIXTURE_IMAGE };

/** How to run the skipped tests, shown when the engine is missing. */
export const HOW_TO_RUN =
  'needs rootful Podman, runc and docker-registry (apt-get install podman runc docker-registry apache2-utils; run as root, as .ci/run does)';

/** Null when the hosting tests can run here, else why not (with how to make them run). */
export function engineSkipReason(): string | null {
  const reason = podmanUnavailableReason();
  return reason ? `${reason}; ${HOW_TO_RUN}` : null;
}

export interface TestEngine {
  engine: ContainerEngine;
  dockerHost: string;
  /** A deployment id unique to this process, so cleanup finds exactly what it created. */
  deploymentId(name: string): string;
  /** Containers of this process still in the engine (a test's "nothing left" check). */
  leftovers(): Promise<string[]>;
  stop(): Promise<void>;
}

let imageBuilt = false;

/**
 * `sandbox: 'gvisor'`: a Podman service whose containers all run under runsc (docs/security.md).
 * `env`: more of the service's environment (scripts/engine.mjs, startPodmanService).
 */
export async function startTestEngine(options: { sandbox?: 'none' | 'gvisor'; env?: Record<string, string> } = {}): Promise<TestEngine> {
  const dir = mkdtempSync(path.join(tmpdir(), 'limelight-engine-'));
  const service = await startPodmanService(path.join(dir, 'podman.sock'), { sandbox: options.sandbox ?? 'none', env: options.env ?? {} });
  if (!imageBuilt) {
    buildFixtureImage();
    imageBuilt = true;
  }
  const engine = ContainerEngine.fromDockerHost(service.dockerHost, { sandbox: options.sandbox ?? 'none' });
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const mine = async () => {
    const list = await engine.docker.listContainers({ all: true, filters: { label: [`${MANAGED_LABEL}=true`] } });
    return list.filter((c) => c.Labels[DEPLOYMENT_LABEL]?.startsWith(prefix)).map((c) => c.Id);
  };
  return {
    engine,
    dockerHost: service.dockerHost,
    deploymentId: (name) => `${prefix}-${name}`,
    leftovers: mine,
    async stop() {
      await Promise.all((await mine()).map((id) => engine.remove(id)));
      const networks = await engine.docker.listNetworks({ filters: { label: [`${MANAGED_LABEL}=true`] } });
      await Promise.all(
        networks
          .filter((n) => n.Labels?.[DEPLOYMENT_LABEL]?.startsWith(prefix))
          .map((n) =>
            engine.docker
              .getNetwork(n.Id)
              .remove()
              .catch(() => undefined),
          ),
      );
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Pushes the fixture image to a test registry as `name` (e.g. fixture:1); returns its reference. */
export function pushFixture(registry: { host: string; username: string; password: string }, name: string): string {
  return pushImage(registry, FIXTURE_IMAGE, name);
}

/** Pushes a local image to a test registry as `name`; returns its reference. */
export function pushImage(registry: { host: string; username: string; password: string }, local: string, name: string): string {
  const image = `${registry.host}/${name}`;
  execFileSync(
    'podman',
    ['push', '--quiet', '--tls-verify=false', '--creds', `${registry.username}:${registry.password}`, local, `docker://${image}`],
    {
      env: podmanEnv(),
      stdio: 'inherit',
    },
  );
  return image;
}

/** Builds `tag` from the fixture image plus Containerfile `lines` (e.g. `VOLUME /data`), offline. */
export function buildImageFrom(tag: string, lines: string[]): string {
  const context = mkdtempSync(path.join(tmpdir(), 'limelight-image-'));
  try {
    writeFileSync(path.join(context, 'Containerfile'), [`FROM ${FIXTURE_IMAGE}`, ...lines, ''].join('\n'));
    execFileSync('podman', ['build', '--quiet', '--pull=never', '-t', tag, context], {
      env: podmanEnv(),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return tag;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
