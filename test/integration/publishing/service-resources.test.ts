// A container service declares what one instance may use (issue 47; docs/publishing.md,
// "Resources"): the API stores `runtime.resources`, answers it with the defaults filled in,
// refuses bad values with 422 naming the field, describes it in /v1/openapi.json, and the
// runner's fleet receives it with the spec, whatever the GPU offer.
import { describe, expect, it } from 'vitest';
import { rawApi } from '../helpers';
import { recordingPlatform } from '../recordingPlatform';

const platform = recordingPlatform();
// The biggest GPU offer: its VRAM must size nothing.
const biggestGpu = () => platform.gpuOffers.reduce((a, b) => ((b.gpu_vram_gb ?? 0) > (a.gpu_vram_gb ?? 0) ? b : a)).id;

const runtime = (resources?: unknown) => ({
  type: 'container',
  image: 'docker.io/me/echo:1.0',
  gpu: biggestGpu(),
  min_instances: 0,
  max_instances: 2,
  idle_timeout_s: 120,
  ...(resources === undefined ? {} : { resources }),
});

const create = (name: string, resources?: unknown) =>
  rawApi(platform.server, 'POST', '/v1/model_management/services', {
    token: platform.token,
    body: { display_name: name, visibility: 'public', runtime: runtime(resources) },
  });

describe('a container service’s resources', () => {
  it('are stored as declared, answered back and given to the runner', async () => {
    const created = await create('Sized echo', { cpu: 0.5, memory_mb: 512 });
    expect(created).toMatchObject({ status: 201, json: { runtime: { resources: { cpu: 0.5, memory_mb: 512, gpu: 0 } } } });
    const id = (created.json as unknown as { id: string }).id;
    expect(platform.deployed.at(-1)).toMatchObject({ serviceId: id, gpu: biggestGpu(), resources: { cpu: 0.5, memoryMb: 512, gpu: 0 } });
    const read = await rawApi(platform.server, 'GET', `/v1/model_management/services/${id}`, { token: platform.token });
    expect(read).toMatchObject({ status: 200, json: { runtime: { resources: { cpu: 0.5, memory_mb: 512, gpu: 0 } } } });

    // An edit of the resources is saved and deployed again (the runner rolls the instances).
    const patched = await rawApi(platform.server, 'PATCH', `/v1/model_management/services/${id}`, {
      token: platform.token,
      body: { runtime: runtime({ cpu: 2, memory_mb: 2048, gpu: 1 }) },
    });
    expect(patched).toMatchObject({ status: 200, json: { runtime: { resources: { cpu: 2, memory_mb: 2048, gpu: 1 } } } });
    expect(platform.deployed.at(-1)).toMatchObject({ serviceId: id, resources: { cpu: 2, memoryMb: 2048, gpu: 1 } });
  });

  it('default to a small CPU service, whatever the GPU offer', async () => {
    const created = await create('Default echo');
    expect(created).toMatchObject({ status: 201, json: { runtime: { resources: { cpu: 1, memory_mb: 1024, gpu: 0 } } } });
    expect(platform.deployed.at(-1)).toMatchObject({ resources: { cpu: 1, memoryMb: 1024, gpu: 0 } });
  });

  it('out of range or unknown are refused with 422 naming the field, and nothing is saved', async () => {
    const before = platform.deployed.length;
    const bad = await create('Bad echo', { cpu: 0, memory_mb: 16, gpu: -1, disk_mb: 10 });
    expect(bad.status).toBe(422);
    const errors = (bad.json as unknown as { errors: { name: string; message: string }[] }).errors;
    expect(errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'runtime.resources', message: expect.stringMatching(/disk_mb/) })]),
    );
    const memory = await create('Bad memory', { memory_mb: 16 });
    expect(memory.status).toBe(422);
    expect((memory.json as unknown as { errors: { name: string; message: string }[] }).errors).toEqual([
      expect.objectContaining({ name: 'runtime.resources.memory_mb', message: 'must be between 64 and 262144 MB' }),
    ]);
    expect(platform.deployed.length).toBe(before);
  });

  it('are described in the OpenAPI document', async () => {
    const doc = (await rawApi(platform.server, 'GET', '/v1/openapi.json')).json as unknown as {
      components: { schemas: { ServiceInput: { properties: { runtime: unknown } } } };
    };
    const text = JSON.stringify(doc.components.schemas.ServiceInput.properties.runtime);
    expect(text).toContain('"resources"');
    expect(text).toContain('"memory_mb"');
    expect(text).toMatch(/memory per instance in MB/);
  });
});
