import { describe, expect, it } from 'vitest';
import { apiClients, confirmedUser, globalServer, rawApi, signedIn } from '../helpers';

// A run the runtime refuses for its input before computing anything (error invalid_input) costs
// nothing: no usage entry in the ledger, the balance as before, no run counted (issue 39, item 3;
// docs/jobs.md, "Charging"). text-to-voxel takes a prompt or an image, both optional in its
// schema, so a run with neither passes the create's validation and is refused by the runtime.

describe('a run refused for its input', () => {
  it('costs nothing and writes nothing to the ledger', async () => {
    const server = globalServer();
    const { session } = await signedIn(server, await confirmedUser(server, 'refused-input'));
    const token = session.access_token;
    const payment = apiClients(server, token).payment;
    const before = await payment.balance();

    const { json } = await rawApi(server, 'POST', '/v1/jobs', {
      token,
      body: { service_id: 'text-to-voxel', endpoint: '/generate', input: { output_format: 'glb' } },
      headers: { Prefer: 'wait=30' },
    });
    expect(json).toMatchObject({
      status: 'FAILED',
      error: { code: 'invalid_input', message: 'prompt: give a prompt or an image' },
      metrics: { cost_credits: 0 },
    });

    const ledger = await payment.transactions();
    expect(ledger.ok && ledger.data.filter((t) => t.kind === 'usage')).toEqual([]);
    expect(await payment.balance()).toEqual(before);
  });
});
