import { describe, expect, it } from 'vitest';
import type { ServiceEndpoint } from '../../../../src/api';
import { handlerFor, outputOf } from '../../../../reference-app/server/runtimes/local/dispatch';
import { DEFAULT_STEP_DELAY_MS, stepDelayFromEnv } from '../../../../reference-app/server/runtimes/config';
import { localDemoRuntime } from '../../../../reference-app/server/runtimes/local';
import { RuntimeError } from '../../../../reference-app/server/runtimes/runtime';
import { ENDPOINTS, HEALTH_ENDPOINT } from '../../../../reference-app/server/seed/endpoints';
import { SEED_MODELS } from '../../../../reference-app/server/seed/models';
import { mediaOf, pngUri, testContext, runtime, tone, wavUri } from './harness';

// Every seeded endpoint runs on the local-demo runtime and produces what its `output` declares.

const CONTENT_TYPES: Record<string, RegExp> = {
  image: /^image\/png$/,
  audio: /^audio\/wav$/,
  video: /^image\/gif$/,
  mesh: /^model\/(gltf-binary|obj)$/,
};

async function sampleInput(e: ServiceEndpoint): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  for (const p of e.parameters) {
    if (p.type === 'file')
      input[p.name] = p.name.includes('audio') ? wavUri(0.5, tone(180)) : await pngUri(48, 32, (x, y) => [x * 5, y * 7, 90]);
    else if (p.name === 'messages') input[p.name] = [{ role: 'user', content: 'Hello!' }];
    else if (p.name === 'input') input[p.name] = ['hello world'];
    else if (p.type === 'string' && p.required) input[p.name] = 'a small blue house';
  }
  // Small sizes keep the all-kinds run quick; the per-kind tests cover the defaults.
  if (e.parameters.some((p) => p.name === 'width')) Object.assign(input, { width: 64, height: 64 });
  if (e.parameters.some((p) => p.name === 'duration_s')) input.duration_s = 1;
  return input;
}

describe('dispatch', () => {
  it('has a template with a declared output for every kind of seeded service', () => {
    const kinds = new Set(SEED_MODELS.map((m) => m.kind));
    for (const kind of kinds) {
      expect(ENDPOINTS[kind], kind).toBeDefined();
      for (const e of ENDPOINTS[kind]) expect(e.output, `${kind} ${e.path}`).toBeDefined();
    }
  });

  it.each(Object.entries(ENDPOINTS).flatMap(([kind, endpoints]) => endpoints.map((e) => [kind, e] as const)))(
    'runs %s and returns what the endpoint declares',
    async (_kind, endpoint) => {
      const recorded = testContext(endpoint);
      const result = (await runtime.run(await sampleInput(endpoint), recorded.ctx)) as Record<string, unknown>;
      expect(recorded.progress.length).toBeGreaterThanOrEqual(3);
      expect(recorded.progress.every((p) => p.fraction >= 0 && p.fraction <= 1 && p.message)).toBe(true);
      const type = endpoint.output!.type;
      if (CONTENT_TYPES[type]) {
        expect(recorded.media.size).toBe(1);
        const ref = Object.values(result).find((v) => typeof v === 'object' && v !== null && 'url' in v);
        const file = mediaOf(recorded, ref);
        expect(file.contentType).toMatch(CONTENT_TYPES[type]);
        expect((ref as unknown as { size: number }).size).toBe(file.bytes.length);
      } else if (type === 'text') {
        expect(typeof result.text).toBe('string');
        expect((result.text as string).length).toBeGreaterThan(10);
        if (endpoint.output!.streaming) expect(recorded.partials.join('')).toBe(result.text);
      } else {
        expect(recorded.media.size).toBe(0);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }
    },
  );

  it('answers the health endpoint', async () => {
    const recorded = testContext(HEALTH_ENDPOINT);
    await expect(runtime.run({}, recorded.ctx)).resolves.toEqual({ status: 'ok', runtime: 'local-demo' });
  });

  it('falls back to the path and parameters for endpoints stored without output', () => {
    const strip = (e: ServiceEndpoint): ServiceEndpoint => ({ ...e, output: undefined });
    expect(outputOf(strip(ENDPOINTS.llm[0]))).toBe('text');
    expect(outputOf(strip(ENDPOINTS.text2img[0]))).toBe('image');
    expect(outputOf(strip(ENDPOINTS.text2video[0]))).toBe('video');
    expect(outputOf(strip(ENDPOINTS['3d'][0]))).toBe('mesh');
    for (const endpoints of Object.values(ENDPOINTS)) {
      for (const e of endpoints) expect(handlerFor(strip(e)), e.path).toBe(handlerFor(e));
    }
    expect(handlerFor(strip(ENDPOINTS['img2video'][0])).id).toBe('image-to-video');
    expect(handlerFor(strip(ENDPOINTS.animation[0])).id).toBe('animation');
  });

  it('refuses an endpoint it cannot run, with a RuntimeError naming it', async () => {
    const odd: ServiceEndpoint = { method: 'POST', path: '/translate', output: { type: 'file' }, parameters: [] };
    const error = await runtime.run({}, testContext(odd).ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeError);
    expect(error).toMatchObject({ code: 'unsupported_endpoint', message: expect.stringContaining('POST /translate (file output)') });
  });

  it('is labelled local-demo and paces steps by LOCAL_DEMO_STEP_MS', () => {
    expect(localDemoRuntime.name).toBe('local-demo');
    expect(stepDelayFromEnv({})).toBe(DEFAULT_STEP_DELAY_MS);
    expect(stepDelayFromEnv({ LOCAL_DEMO_STEP_MS: '0' })).toBe(0);
    expect(() => stepDelayFromEnv({ LOCAL_DEMO_STEP_MS: 'fast' })).toThrow(
      'LOCAL_DEMO_STEP_MS must be a whole number of milliseconds ≥ 0, got "fast"',
    );
  });
});
