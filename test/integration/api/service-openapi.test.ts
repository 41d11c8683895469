import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { globalServer, PUBLISHER, rawApi, signedIn } from '../helpers';
import { runner, TEXT2IMG } from '../jobs/fixtures';

// GET /v1/services/{service_id}/openapi.json (docs/sdk.md): every seeded service's document is
// valid OpenAPI 3.1 (checked by a real validator), openapi-typescript generates types from it,
// private documents are the owner's, and the run operation it describes really runs a job.

const server = globalServer();

async function seededServiceIds(token: string): Promise<{ id: string; is_public: boolean }[]> {
  const { status, json } = await rawApi(server, 'GET', '/v1/model_management/model_descriptors', { token });
  expect(status).toBe(200);
  return (json as unknown as { id: string; is_public: boolean }[]).map(({ id, is_public }) => ({ id, is_public }));
}

describe('GET /v1/services/{service_id}/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document for every seeded service, public and private', { timeout: 60_000 }, async () => {
    const { session } = await signedIn(server, PUBLISHER);
    const services = await seededServiceIds(session.access_token);
    expect(services.some((s) => !s.is_public)).toBe(true);
    expect(services.length).toBeGreaterThan(10);
    // One validator: compiling the OpenAPI 3.1 meta-schema is most of the cost.
    const validator = new Validator();
    for (const service of services) {
      const { status, json } = await rawApi(server, 'GET', `/v1/services/${service.id}/openapi.json`, { token: session.access_token });
      expect(status, service.id).toBe(200);
      const result = await validator.validate(json as never);
      expect(result.errors ?? [], service.id).toEqual([]);
      expect(result.valid, service.id).toBe(true);
    }
  });

  it('describes each endpoint as one run operation with the input schema, output, envelope, errors and security', async () => {
    const { status, json, headers } = await rawApi(server, 'GET', `/v1/services/${TEXT2IMG}/openapi.json`);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('public, max-age=60');
    const doc = json as unknown as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
      components: {
        schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }>;
        securitySchemes: object;
      };
    };
    expect(doc.openapi).toBe('3.1.0');
    const run = doc.paths[`/v1/services/${TEXT2IMG}/run/generate`]!.post!;
    expect(run.operationId).toBe('run_generate');
    expect(Object.keys(run.responses).sort()).toEqual(['200', '201', '401', '402', '404', '409', '422', '429', '503']);
    const input = doc.components.schemas.GenerateInput!;
    expect(input.required).toEqual(['prompt']);
    expect(input.properties!.width).toMatchObject({ type: 'integer', default: 1024 });
    expect(input.properties!.prompt).toMatchObject({ type: 'string' });
    expect(doc.components.schemas.GenerateOutput!.required).toEqual(['image']);
    expect(doc.components.schemas.Job!.properties!.status!.enum).toEqual([
      'QUEUED',
      'PROCESSING',
      'FINISHED',
      'FAILED',
      'TIMEOUT',
      'CANCELLED',
    ]);
    expect(doc.components.schemas.FieldError!.required).toEqual(['name', 'rule', 'message']);
    expect(doc.components.securitySchemes).toMatchObject({ bearer: { type: 'http', scheme: 'bearer' } });
    for (const shared of ['/v1/jobs/{job_id}', '/v1/jobs/{job_id}/cancel', '/v1/jobs/{job_id}/stream', '/v1/files']) {
      expect(doc.paths[shared], shared).toBeDefined();
    }
  });

  it('is accepted by openapi-typescript, which types the input, output and errors', async () => {
    const { json } = await rawApi(server, 'GET', `/v1/services/${TEXT2IMG}/openapi.json`);
    const types = astToString(await openapiTS(json as never));
    expect(types).toMatch(/GenerateInput: \{[^}]*prompt: string;/s);
    expect(types).toMatch(/width: number;/);
    expect(types).toMatch(/run_generate: \{/);
    expect(types).toMatch(/status: "QUEUED" \| "PROCESSING" \| "FINISHED" \| "FAILED" \| "TIMEOUT" \| "CANCELLED";/);
  });

  it('answers 404 for a private service to anyone but its owner, and for unknown ids', async () => {
    const { session } = await signedIn(server, PUBLISHER);
    const privateId = (await seededServiceIds(session.access_token)).find((s) => !s.is_public)!.id;
    const anonymous = await rawApi(server, 'GET', `/v1/services/${privateId}/openapi.json`);
    expect(anonymous.status).toBe(404);
    expect(anonymous.json.detail).toMatch(/needs its owner’s API key or access token/);
    const stranger = await runner(server, 'stranger');
    expect((await rawApi(server, 'GET', `/v1/services/${privateId}/openapi.json`, { token: stranger.token })).status).toBe(404);
    const owner = await rawApi(server, 'GET', `/v1/services/${privateId}/openapi.json`, { token: session.access_token });
    expect(owner.status).toBe(200);
    expect(owner.headers.get('cache-control')).toBe('private, no-store');
    expect((await rawApi(server, 'GET', '/v1/services/no-such-service/openapi.json')).status).toBe(404);
  });
});

describe('POST /v1/services/{service_id}/run/{endpoint}', () => {
  it('queues the job the document describes, with Prefer: wait and Idempotency-Key like POST /v1/jobs', async () => {
    const { token } = await runner(server, 'run-op');
    const headers = { Prefer: 'wait=30', 'Idempotency-Key': `run-op-${Date.now()}` };
    const first = await rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/generate`, {
      token,
      body: { input: { prompt: 'a lime' } },
      headers,
    });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ service_id: TEXT2IMG, endpoint: '/generate', status: 'FINISHED' });
    expect((first.json.result as { image: { content_type: string } }).image.content_type).toBe('image/png');
    const again = await rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/generate`, {
      token,
      body: { input: { prompt: 'a lime' } },
      headers,
    });
    expect(again.status).toBe(200);
    expect(again.json.job_id).toBe(first.json.job_id);
  });

  it('refuses bad input per field (422), bad JSON (400), unknown endpoints (404) and anonymous callers (401)', async () => {
    const { token } = await runner(server, 'run-op-bad');
    const bad = await rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/generate`, {
      token,
      body: { input: { prompt: 'x', width: 'wide', colour: 'red' } },
    });
    expect(bad.status).toBe(422);
    expect((bad.json.errors as { name: string; rule: string }[]).map((e) => `${e.name}:${e.rule}`).sort()).toEqual([
      'colour:unknown',
      'width:type',
    ]);
    const extra = await rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/generate`, { token, body: { prompt: 'x' } });
    expect(extra.status).toBe(422);
    const malformed = await rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/generate`, { token, rawBody: '{' });
    expect(malformed.status).toBe(400);
    const unknown = await rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/nope`, { token, body: { input: { prompt: 'x' } } });
    expect(unknown.status).toBe(404);
    const anonymous = await rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/generate`, { body: { input: { prompt: 'x' } } });
    expect(anonymous.status).toBe(401);
  });
});
