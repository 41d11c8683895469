// A service's secrets reach its containers' environment (docs/publishing.md, "Secrets"), on a
// real server with the runner on (Podman) and the fixture image, which greets with $GREETING:
// a secret set while the service runs changes nothing until the next deploy (a save of the same
// image, no rebuild, no push), which rolls the instances onto it; the value shows in no answer,
// deployment log or server log line. Skips with how to run it when Podman is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLogger } from '../../../reference-app/server/log';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { hostingSkipReason, runnerEnv, useHosting } from './hostingSetup';
import { publishContainer } from './publishContainer';
import { confirmedUser, rawApi, signedIn } from '../helpers';

const skip = hostingSkipReason();
if (skip) console.warn(`service secrets (container env) tests skipped: ${skip}`);

describe.skipIf(skip)('service secrets in a running container (Podman)', () => {
  const h = useHosting('secret-greeter:1');
  let server: PlatformTestServer;
  const logged: string[] = [];

  beforeAll(async () => {
    configureLogger({ write: (line) => void logged.push(line), level: 'debug' });
    server = await startPlatformServer({ env: { ...runnerEnv(h), LOG_REQUESTS: 'true' } });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    configureLogger({ write: (line) => void process.stdout.write(line), level: 'info' });
  }, 60_000);

  it('a secret is the instances’ environment from the next deploy on, and is nowhere else', { timeout: 120_000 }, async () => {
    const { session } = await signedIn(server, await confirmedUser(server, 'secret-env'));
    const token = session.access_token;
    const created = await publishContainer(server, token, h.registry, { image: h.image, name: 'Secret greeter', idleTimeoutS: 60 });
    const id = created.id;
    const hosting = async () =>
      (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token })).json as Record<
        string,
        unknown
      >;
    const greet = async () => {
      const answer = await rawApi(server, 'POST', '/v1/jobs', {
        token,
        body: { service_id: id, endpoint: '/greet', input: { name: 'Ada' } },
        headers: { Prefer: 'wait=30' },
      });
      return (answer.json as unknown as { result?: { text: string } }).result?.text;
    };
    await expect.poll(async () => (await hosting()).status, { timeout: 30_000 }).toBe('running');
    expect(await greet()).toBe('Hello, Ada.');

    const secret = `Bonjour-${Math.random().toString(36).slice(2)}`;
    const set = await rawApi(server, 'PUT', `/v1/model_management/services/${id}/secrets/GREETING`, { token, body: { value: secret } });
    expect(set.status).toBe(200);
    // Not before the next deploy: the running instance keeps the environment it started with.
    expect(await greet()).toBe('Hello, Ada.');

    // The next deploy: the same runtime saved again (what `limelight deploy` does), no new image.
    const service = await rawApi(server, 'GET', `/v1/model_management/services/${id}`, { token });
    const runtime = service.json.runtime as Record<string, unknown>;
    const fields = ['type', 'image', 'registry_credential_id', 'gpu', 'min_instances', 'max_instances', 'idle_timeout_s'];
    const redeploy = async () => {
      const answer = await rawApi(server, 'PATCH', `/v1/model_management/services/${id}`, {
        token,
        body: { runtime: Object.fromEntries(fields.map((k) => [k, runtime[k]])) },
      });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      return answer;
    };
    const saved = await redeploy();
    await expect.poll(greet, { timeout: 60_000, interval: 500 }).toBe(`${secret}, Ada.`);

    // Removed: gone from the instances at the deploy after.
    expect((await rawApi(server, 'DELETE', `/v1/model_management/services/${id}/secrets/GREETING`, { token })).status).toBe(200);
    await redeploy();
    await expect.poll(greet, { timeout: 60_000, interval: 500 }).toBe('Hello, Ada.');

    for (const answer of [set, service, saved]) expect(JSON.stringify(answer.json)).not.toContain(secret);
    expect(JSON.stringify(await hosting())).not.toContain(secret);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain(secret);

    expect((await rawApi(server, 'DELETE', `/v1/model_management/services/${id}`, { token })).status).toBe(200);
    await expect.poll(() => h.t.engine.containersOf(id)).toEqual([]);
  });
});
