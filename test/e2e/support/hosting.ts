import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { registryUnavailableReason, startRegistry, type TestRegistry } from '../../../scripts/registry.mjs';
import { engineSkipReason, pushFixture, startTestEngine, type TestEngine } from '../../setup/containerEngine';

// The hosting journey's stack (docs/publishing.md, "Build, push, deploy, run"): Podman's Docker
// API on a private socket (scripts/engine.mjs through test/setup/containerEngine.ts, which also
// builds the FROM-scratch fixture image), a loopback registry with htpasswd
// (scripts/registry.mjs) holding the pushed fixture, and the built site with the runner on
// (runner-site.ts). The same helpers the integration tests use, so the two never drift.

/** Null when the journey can run here, else why not and how to make it run. */
export function hostingSkipReason(): string | null {
  return engineSkipReason() ?? registryUnavailableReason();
}

export interface HostingStack {
  /** Origin of the site with the runner on, e.g. http://127.0.0.1:41234. */
  site: string;
  registry: TestRegistry;
  engine: TestEngine;
  /** Pushes the fixture image as `name` (e.g. greeter:1); returns its reference. */
  push(name: string): string;
  /** Containers in the engine labelled with this deployment (a service id). */
  containersOf(serviceId: string): Promise<string[]>;
  stop(): Promise<void>;
}

function startRunnerSite(dockerHost: string, registryHost: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'test/e2e/support/runner-site.ts'], {
    // The loopback registry is the publisher's own: images come only from the registries allowed
    // (CONTAINER_REGISTRIES, docs/security.md), so this one is named.
    env: { ...process.env, NODE_ENV: 'development', LIME_RUNNER_DOCKER_HOST: dockerHost, CONTAINER_REGISTRIES: registryHost },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const { url } = JSON.parse(line) as { url?: string };
        if (url) resolve({ url, child });
      } catch {
        // a log line, not the announcement
      }
    });
    child.once('exit', (code) => reject(new Error(`the runner site exited (${code}) before it answered: ${stderr.trim()}`)));
  });
}

export async function startHostingStack(): Promise<HostingStack> {
  const engine = await startTestEngine();
  const registry = await startRegistry().catch(async (error: unknown) => {
    await engine.stop();
    throw error;
  });
  const site = await startRunnerSite(engine.dockerHost, registry.host).catch(async (error: unknown) => {
    await registry.stop();
    await engine.stop();
    throw error;
  });
  const pushed: string[] = [];
  return {
    site: site.url,
    registry,
    engine,
    push(name) {
      const image = pushFixture(registry, name);
      pushed.push(image);
      return image;
    },
    containersOf: (serviceId) => engine.engine.containersOf(serviceId),
    async stop() {
      if (site.child.exitCode === null) {
        const exited = new Promise((r) => site.child.once('exit', r));
        site.child.kill('SIGTERM');
        await exited;
      }
      // The engine's copies of what was pulled go too, so runs do not pile up images.
      for (const image of pushed) {
        await engine.engine.docker
          .getImage(image)
          .remove()
          .catch(() => undefined);
      }
      await registry.stop();
      await engine.stop();
    },
  };
}
