// `resources.gpu: {type, count}` (issue 49, item 7; docs/publishing.md, "Resources"): the type is
// one of the GPU offers and the service's offer, the count what each instance holds; both reach
// the runner, and a run is priced at the offer's price times the count, in the estimate everyone
// reads (price_basis) and in the price the metering holds and charges (runPriceOf). A plain count
// stays accepted; a bad type or count, or a type that is not runtime.gpu, is a 422 in words.
import { describe, expect, it } from 'vitest';
import { GPU_PRICES, gpuPricePerSecond } from '@limelight/rules';
import { runPriceOf } from '../../../reference-app/server/jobs';
import { rawApi } from '../helpers';
import { recordingPlatform } from '../recordingPlatform';

// The runner is a stand-in that records the spec it is given (recordingPlatform.ts).
const platform = recordingPlatform();

const A100 = GPU_PRICES.find((offer) => offer.id === 'runpod-a100-80')!;
const L4 = GPU_PRICES.find((offer) => offer.id === 'runpod-l4-24')!;

const create = (name: string, gpu: string, resources: unknown) =>
  rawApi(platform.server, 'POST', '/v1/model_management/services', {
    token: platform.token,
    body: {
      display_name: name,
      visibility: 'public',
      endpoints: [{ method: 'POST', path: '/run', parameters: [], output: { type: 'json' } }],
      runtime: { type: 'container', image: 'docker.io/me/big:1', gpu, min_instances: 0, max_instances: 2, idle_timeout_s: 60, resources },
    },
  });

const priceBasis = async (id: string) =>
  (await rawApi(platform.server, 'GET', `/v1/model_management/price_basis?service_id=${id}&endpoint=/run`)).json as unknown as {
    gpu: string;
    price_per_s_usd: number;
  };

describe('resources.gpu as {type, count}', () => {
  it('is saved as the offer and its count, reaches the runner, and prices a run at the offer times the count', async () => {
    const created = await create('Two A100s', A100.id, { memory_mb: 2048, gpu: { type: A100.id, count: 2 } });
    expect(created).toMatchObject({ status: 201, json: { runtime: { gpu: A100.id, resources: { memory_mb: 2048, gpu: 2 } } } });
    const id = (created.json as unknown as { id: string }).id;
    expect(platform.deployed.at(-1)).toMatchObject({ serviceId: id, gpu: A100.id, resources: { memoryMb: 2048, gpu: 2 } });

    const twice = gpuPricePerSecond(A100.customer_price_per_s_usd, 2);
    expect(twice).toBeCloseTo(2 * A100.customer_price_per_s_usd, 12);
    // The estimate anyone reads before a run, and the price the metering holds and charges with.
    expect(await priceBasis(id)).toMatchObject({ gpu: `2 × ${A100.display_name}`, price_per_s_usd: twice });
    expect(await runPriceOf(platform.server.platform.database.db, id, 'gpu')).toEqual({
      gpu: `2 × ${A100.display_name}`,
      pricePerSecondUsd: twice,
      hardware: 'gpu',
    });
  });

  it('counts one GPU when the count is left out, and a plain count still works', async () => {
    const one = await create('One L4', L4.id, { gpu: { type: L4.id } });
    expect(one).toMatchObject({ status: 201, json: { runtime: { gpu: L4.id, resources: { gpu: 1 } } } });
    expect(await priceBasis((one.json as unknown as { id: string }).id)).toMatchObject({
      gpu: L4.display_name,
      price_per_s_usd: L4.customer_price_per_s_usd,
    });

    // A CPU service that names an offer is priced at the offer, by its id (not the default GPU).
    const plain = await create('Plain A100 offer', A100.id, { gpu: 0 });
    expect(plain).toMatchObject({ status: 201, json: { runtime: { resources: { gpu: 0 } } } });
    expect(await priceBasis((plain.json as unknown as { id: string }).id)).toMatchObject({
      gpu: A100.display_name,
      price_per_s_usd: A100.customer_price_per_s_usd,
    });
  });

  it('refuses a bad type or count, and a type that is not the runtime’s offer, with 422 naming the field', async () => {
    const before = platform.deployed.length;
    const errorsOf = async (gpu: string, resources: unknown) => {
      const answer = await create('Refused', gpu, resources);
      expect(answer.status).toBe(422);
      return (answer.json as unknown as { errors: { name: string; message: string }[] }).errors;
    };
    expect(await errorsOf(A100.id, { gpu: { type: 'a100', count: 1 } })).toEqual([
      expect.objectContaining({
        name: 'runtime.resources.gpu',
        message: expect.stringMatching(/^type must be one of the GPU offers \(runpod-a4000-16, .*\), got "a100"$/),
      }),
    ]);
    expect(await errorsOf(A100.id, { gpu: { type: A100.id, count: 9 } })).toEqual([
      expect.objectContaining({ name: 'runtime.resources.gpu.count', message: 'must be between 1 and 8 GPUs' }),
    ]);
    expect(await errorsOf(L4.id, { gpu: { type: A100.id, count: 1 } })).toEqual([
      expect.objectContaining({
        name: 'runtime.resources.gpu.type',
        message: `is the GPU offer "${A100.id}" but runtime.gpu is "${L4.id}": name the same offer in both`,
      }),
    ]);
    expect(await errorsOf(L4.id, { gpu: 'two' })).toEqual([
      expect.objectContaining({
        name: 'runtime.resources.gpu',
        message: expect.stringMatching(/^must be a number of GPUs \(0 to 8\) or \{type, count\}/),
      }),
    ]);
    expect(platform.deployed.length).toBe(before);
  });
});
