// Secrets with several runner processes on one database (docs/deploy.md, "Several runners";
// docs/publishing.md, "Secrets"): the process holding a deployment applies a deploy made by
// another process whose only change is the secrets (before, the same image and settings made the
// same lease revision, so the holder never restarted with them), and a secret set without a deploy
// rolls nothing. Two LeasedFleets on the server's database stand for a runner and an API process;
// the runner's engine is a recording fake, so no Podman is needed.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../../reference-app/server/crypto';
import { LeasedFleet } from '../../../reference-app/server/hosting';
import { confirmedUser, rawApi, signedIn } from '../helpers';
import { recordingFleet, recordingPlatform } from '../recordingPlatform';

const key = randomBytes(32);
// The server's own fleet records too: this test's two leased fleets are the processes compared.
const platform = recordingPlatform({ env: { LIMELIGHT_SECRET_KEY: key.toString('hex') } });

describe('secrets and the lease revision', () => {
  it('a deploy by another process that changes only the secrets reaches the holder; a secret alone rolls nothing', async () => {
    const { session } = await signedIn(platform.server, await confirmedUser(platform.server, 'secrets-runners'));
    const token = session.access_token;
    const runtime = {
      type: 'container',
      image: 'docker.io/me/echo:1',
      gpu: platform.gpu,
      min_instances: 0,
      max_instances: 1,
      idle_timeout_s: 60,
    };
    const created = await rawApi(platform.server, 'POST', '/v1/model_management/services', {
      token,
      body: { display_name: `Runners ${Math.random().toString(36).slice(2, 8)}`, visibility: 'public', runtime },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = String(created.json.id);
    const saved = platform.deployed.at(-1)!;
    expect(saved.serviceId).toBe(id);

    const db = platform.server.platform.database.db;
    const box = createSecretBox(key);
    const holder = recordingFleet();
    const runner = new LeasedFleet(db, box, { local: holder.fleet, renewMs: 100 });
    const api = new LeasedFleet(db, box, { local: null });
    try {
      await runner.start();
      const mine = () => holder.deployed.filter((s) => s.serviceId === id);
      await expect.poll(() => mine().length).toBe(1);
      expect(mine()[0]!.env).toEqual({});

      // A secret set: nothing restarts (the next deploy takes it).
      const secret = `value-${randomBytes(6).toString('hex')}`;
      expect(
        (await rawApi(platform.server, 'PUT', `/v1/model_management/services/${id}/secrets/GREETING`, { token, body: { value: secret } }))
          .status,
      ).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
      expect(mine()).toHaveLength(1);

      // The same spec deployed again by the API process, which cannot take the lease: the holder
      // applies it on its next renewal, with the secret.
      await api.deploy(saved);
      await expect.poll(() => mine().length, { timeout: 5000 }).toBe(2);
      expect(mine()[1]!.env).toEqual({ GREETING: secret });

      // Deployed by the holder itself: once, and its renewals agree with it (no second deploy).
      expect((await rawApi(platform.server, 'DELETE', `/v1/model_management/services/${id}/secrets/GREETING`, { token })).status).toBe(200);
      await runner.deploy(saved);
      expect(mine()).toHaveLength(3);
      expect(mine()[2]!.env).toEqual({});
      await new Promise((r) => setTimeout(r, 500));
      expect(mine()).toHaveLength(3);
      // The record holds names and times only, never a value.
      const row = await db.selectFrom('service_runtimes').select('secrets_deployed').where('model_id', '=', id).executeTakeFirstOrThrow();
      expect(row.secrets_deployed).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await runner.close();
      await api.close();
    }
  });
});
