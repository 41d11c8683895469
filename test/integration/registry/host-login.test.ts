// A logged-in engine host lends its login to no tenant (issue 47, finding 1). docs/publishing.md's
// "Signing in" step (`podman login` to the platform's registry) writes the login file of the host
// the engine runs on, and Podman's Docker API pulls with that file's logins when a pull names no
// credential: the demo account's service deployed and ran the publisher's private image. Here the
// engine service reads a login file of its own (its XDG_RUNTIME_DIR; never the machine's
// /run/containers/0/auth.json), a publisher signs in there as the docs say, and then: a pull
// without a credential is anonymous and refused, the owner's credential still pulls, and a
// service naming another namespace of the platform's registry is refused when saved (422).
// Skips with how to run it when Podman or docker-registry is missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podmanEnv } from '../../../scripts/engine.mjs';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { REGISTRY_BINARY } from '../../../reference-app/server/registry';
import { engineSkipReason, FIXTURE_IMAGE, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { startRegistryPlatform } from '../../setup/publishingPlatform';
import { apiClients, confirmedUser, rawApi, signedIn } from '../helpers';

const registryMissing =
  spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)';
const skip = engineSkipReason() ?? registryMissing;
if (skip) console.warn(`host login tests skipped: ${skip}`);

/** Runs podman without blocking (the platform answering its token requests runs in this process). */
function podman(args: string[], stdin?: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('podman', args, { env: podmanEnv(), timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
    child.stdin.end(stdin ?? '');
  });
}

describe.skipIf(skip)("the engine host's registry login is never a tenant's", () => {
  let t: TestEngine;
  let server: PlatformTestServer;
  let dataDir: string;
  /** The engine service's XDG_RUNTIME_DIR: its login file is containers/auth.json in it. */
  let runtimeDir: string;
  let host: string;
  let image: string;
  let publisher: { token: string; apiKey: string; namespace: string };

  const userWithKey = async (label: string) => {
    const { session } = await signedIn(server, await confirmedUser(server, label));
    const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token: session.access_token, body: {} });
    const info = await rawApi(server, 'GET', '/v1/registry', { token: session.access_token });
    return { token: session.access_token, apiKey: String(key.json.secret), namespace: String(info.json.namespace) };
  };
  const removeImage = () =>
    t.engine.docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
  const engineHas = () =>
    t.engine.docker
      .getImage(image)
      .inspect()
      .then(
        () => true,
        () => false,
      );

  beforeAll(async () => {
    runtimeDir = mkdtempSync(path.join(tmpdir(), 'limelight-engine-logins-'));
    t = await startTestEngine({ env: { XDG_RUNTIME_DIR: runtimeDir } });
    dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-host-login-'));
    ({ server, host } = await startRegistryPlatform(t, dataDir));
    publisher = await userWithKey('host-login-publisher');
    image = `${host}/${publisher.namespace}/private:1`;
    const pushed = await podman([
      'push',
      '--quiet',
      '--tls-verify=false',
      '--creds',
      `anyone:${publisher.apiKey}`,
      FIXTURE_IMAGE,
      `docker://${image}`,
    ]);
    expect(pushed.status, pushed.output).toBe(0);
    // docs/publishing.md, "Signing in", on the engine's host: into the login file the service reads.
    const authFile = path.join(runtimeDir, 'containers', 'auth.json');
    const login = await podman(
      ['login', '--authfile', authFile, '--tls-verify=false', '--username', 'anyone', '--password-stdin', host],
      publisher.apiKey,
    );
    expect(login.status, login.output).toBe(0);
    expect(existsSync(authFile)).toBe(true);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    if (t && image) await removeImage();
    await t?.stop();
    for (const dir of [dataDir, runtimeDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("the engine service pulls with the host's login when a pull names no credential (what the runner must never do)", async () => {
    await removeImage();
    // The Docker API's own pull, no X-Registry-Auth: the hazard this file is about, on this engine.
    const stream = await t.engine.docker.pull(image);
    const events = await new Promise<{ error?: string }[]>((resolve, reject) =>
      t.engine.docker.modem.followProgress(stream, (error, output) => (error ? reject(error) : resolve(output as { error?: string }[]))),
    );
    expect(events.filter((e) => e.error)).toEqual([]);
    expect(await engineHas()).toBe(true);
    await removeImage();
  });

  it("the runner's pull without a credential is anonymous: refused, the host's login unused", async () => {
    await removeImage();
    await expect(t.engine.pull(image)).rejects.toThrow(
      `Pulling ${image} failed: the registry refused a pull without a credential (save a registry credential for it and choose it for the service)`,
    );
    // A credential with an empty username is none: Podman would use the host's login for it too.
    await expect(t.engine.pull(image, { username: '', password: publisher.apiKey, serveraddress: host })).rejects.toThrow(
      /refused a pull without a credential/,
    );
    expect(await engineHas()).toBe(false);
  });

  it("the owner's own credential still pulls it", async () => {
    await removeImage();
    await t.engine.pull(image, { username: 'anyone', password: publisher.apiKey, serveraddress: host });
    expect(await engineHas()).toBe(true);
    await removeImage();
  });

  it("a service naming another namespace of the platform's registry is refused when saved, with the namespace to use", async () => {
    const demo = await userWithKey('host-login-demo');
    const api = apiClients(server, demo.token);
    const servers = await api.modelManagement.pricingServers();
    if (!servers.ok) throw new Error(servers.error);
    const runtime = { type: 'container' as const, image, gpu: servers.data[0]!.id, min_instances: 0, max_instances: 1, idle_timeout_s: 60 };
    const refusal = {
      name: 'runtime.image',
      rule: 'namespace',
      message:
        `${host}/${publisher.namespace} is another account's namespace of the platform's registry; ` +
        `your images are under ${host}/${demo.namespace}/<name>:<tag>`,
    };
    const created = await rawApi(server, 'POST', '/v1/model_management/services', {
      token: demo.token,
      body: { display_name: 'Borrowed image', visibility: 'public', runtime },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(422);
    expect(created.json.errors).toEqual([refusal]);

    // The same on an update of a service the demo account owns.
    const own = await rawApi(server, 'POST', '/v1/model_management/services', {
      token: demo.token,
      body: { display_name: 'Own service', visibility: 'public' },
    });
    expect(own.status, JSON.stringify(own.json)).toBe(201);
    const updated = await rawApi(server, 'PATCH', `/v1/model_management/services/${String(own.json.id)}`, {
      token: demo.token,
      body: { runtime },
    });
    expect(updated.status, JSON.stringify(updated.json)).toBe(422);
    expect(updated.json.errors).toEqual([refusal]);
    // Nothing was deployed from it.
    expect(await engineHas()).toBe(false);
  });
});
