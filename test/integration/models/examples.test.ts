import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '../../../src/api';
import { rawApi } from '../helpers';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { download, runner, runService } from './fixtures';

// The seeded examples on a running server (issue 38, item 3): their media are served to anyone,
// the catalogue shows each service's example output as its picture, and a Playground's
// prefilled example input (an example file among them) runs as it is.

let server: PlatformTestServer;
let token: string;
beforeAll(async () => {
  server = await startPlatformServer({ env: { LOCAL_DEMO_STEP_MS: '0' } });
  token = (await runner(server, 'examples')).token;
}, 60_000);
afterAll(() => server?.close());

const service = async (id: string) => {
  const answer = await fetch(`${server.url}/v1/model_management/model_descriptors`);
  expect(answer.status).toBe(200);
  const found = ((await answer.json()) as ModelDescriptor[]).find((m) => m.id === id);
  expect(found, id).toBeDefined();
  return found!;
};

describe('seeded examples', () => {
  it('example media are public, typed and cacheable; other names are not found', async () => {
    const wav = await fetch(`${server.url}/media/examples/lime-voice-audio.wav`);
    expect(wav.status).toBe(200);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(wav.headers.get('cache-control')).toMatch(/^public/);
    expect(wav.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await wav.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    for (const bad of ['..%2F..%2Fpackage.json', 'nothing-here.png', 'x.exe']) {
      expect((await fetch(`${server.url}/media/examples/${bad}`)).status, bad).toBe(404);
    }
  });

  it("the catalogue shows a real model's example output as its picture, and its endpoint's example", async () => {
    const voice = await service('lime-voice');
    // Made absolute by the catalogue, like every picture it lists.
    expect(voice.display_img_url).toBe(`${server.url}/media/examples/lime-voice-cover.webp`);
    expect(voice.endpoints?.[0]?.example).toMatchObject({
      input: { text: expect.any(String) },
      result: { audio: { url: '/media/examples/lime-voice-audio.wav', content_type: 'audio/wav' } },
      run_seconds: expect.any(Number),
    });
    expect((await service('lime-cutout')).display_img_url).toBe(`${server.url}/media/examples/lime-cutout-cover.webp`);
    // A demo's output is never a cover (issue 50): the demo-run text-to-image gets its designed cover.
    expect((await service('lime-diffusion-xl')).display_img_url).toMatch(`${server.url}/media/covers/lime-diffusion-xl.svg?v=`);
  });

  it('the prefilled example input runs as it is: the real cutout reads the example file', async () => {
    const example = (await service('lime-cutout')).endpoints![0]!.example!;
    const job = await runService(server, token, 'lime-cutout', '/remove', example.input!);
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const result = job.result as { image: { url: string; content_type: string } };
    expect(result.image.content_type).toBe('image/png');
    // The same bytes as the recorded example: the run on the server is the one the page shows.
    const mine = await download(server, token, result.image.url);
    const shown = Buffer.from(await (await fetch(`${server.url}/media/examples/lime-cutout-image.png`)).arrayBuffer());
    expect(mine.equals(shown)).toBe(true);
  });

  it('a path outside the examples is refused as a file input, before the run', async () => {
    for (const image of ['/media/examples/../files/secret.png', '/media/examples/nothing-here.png']) {
      const created = await rawApi(server, 'POST', '/v1/jobs', {
        token,
        body: { service_id: 'lime-cutout', endpoint: '/remove', input: { image } },
      });
      expect(created.status, image).toBe(422);
      expect(String(created.json.detail)).toContain(`${image} is not one or has expired`);
    }
  });
});
