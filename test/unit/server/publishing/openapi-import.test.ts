import { describe, expect, it } from 'vitest';
import { importOpenApi, OpenApiImportError, outputTypeOf } from '../../../../reference-app/server/publishing/openapiImport';
import { fastApiDocument } from '../../../fixtures/fastapi-openapi';

describe('endpoint import from a FastAPI OpenAPI document', () => {
  it('turns each GET/POST operation with a fixed path into an endpoint with the output type of its success response', async () => {
    const { endpoints } = await importOpenApi(fastApiDocument);
    expect(endpoints.map((e) => [e.method, e.path, e.output?.type])).toEqual([
      ['POST', '/generate', 'image'],
      ['POST', '/upscale', 'image'],
      ['GET', '/health', 'json'],
    ]);
    expect(endpoints[0]!.description).toBe('Generate');
  });

  it('follows $ref into components, reduces allOf enums and Optional[...] and keeps defaults, bounds and steps', async () => {
    const { endpoints } = await importOpenApi(fastApiDocument);
    const byName = Object.fromEntries(endpoints[0]!.parameters.map((p) => [p.name, p]));
    expect(byName.prompt).toEqual({ name: 'prompt', type: 'string', required: true, description: 'What to draw' });
    expect(byName.style).toEqual({
      name: 'style',
      type: 'string',
      required: false,
      description: 'Style',
      default: 'pencil',
      enum: ['pencil', 'ink', 'charcoal'],
    });
    expect(byName.steps).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 20 });
    expect(byName.guidance).toMatchObject({ type: 'number', minimum: 0, step: 0.5, default: 7.5 });
    expect(byName.seed).toMatchObject({ type: 'integer', required: false });
    expect(byName.tags).toMatchObject({ type: 'array', items: { type: 'string' } });
  });

  it('imports multipart uploads as file parameters and query parameters of GET operations', async () => {
    const { endpoints } = await importOpenApi(fastApiDocument);
    expect(endpoints[1]!.parameters).toEqual([
      { name: 'image', type: 'file', required: true, description: 'Image' },
      { name: 'factor', type: 'integer', required: false, description: 'Factor', default: 2, enum: [2, 4] },
    ]);
    expect(endpoints[2]!.parameters).toEqual([
      { name: 'verbose', type: 'boolean', required: false, description: 'Verbose', default: false },
    ]);
  });

  it('lists every construct it did not import instead of dropping it silently', async () => {
    const { unsupported } = await importOpenApi(fastApiDocument);
    expect(unsupported).toEqual([
      'POST /generate: parameter "mode" has a union type (anyOf/oneOf of several types)',
      'GET /health: header parameter "x-trace" (only query parameters and bodies are imported)',
      'GET /jobs/{job_id}: path templates such as {job_id} (an endpoint has a fixed path)',
      'PUT /settings: method PUT (endpoints are GET or POST)',
    ]);
  });

  it('never fetches external $ref targets', async () => {
    const document = structuredClone(fastApiDocument) as Record<string, unknown>;
    (document.components as { schemas: Record<string, unknown> }).schemas.GenerateRequest = { $ref: 'http://127.0.0.1:9/evil.json' };
    const { endpoints, unsupported } = await importOpenApi(document);
    expect(endpoints[0]!.parameters).toEqual([]);
    expect(unsupported).toContain('POST /generate: the application/json body is not an object with named properties');
  });

  it('refuses what is not an OpenAPI 3 document with a message that says why', async () => {
    await expect(importOpenApi('nope')).rejects.toThrow(new OpenApiImportError('The document is not a JSON object'));
    await expect(importOpenApi({ swagger: '2.0', paths: {} })).rejects.toThrow(/Only OpenAPI 3\.0 and 3\.1 .*found swagger 2\.0/);
    await expect(importOpenApi({ openapi: '3.1.0' })).rejects.toThrow('The document has no "paths" object');
    await expect(importOpenApi({ openapi: '3.0.3', paths: { '/a': { post: { $ref: '#/nowhere' } } } })).rejects.toThrow(
      /cannot be resolved/,
    );
  });

  it('maps response media types to output types', () => {
    expect(
      [
        'image/webp',
        'audio/wav',
        'video/mp4',
        'model/gltf-binary',
        'application/json',
        'application/problem+json',
        'text/plain; charset=utf-8',
        'application/zip',
      ].map(outputTypeOf),
    ).toEqual(['image', 'audio', 'video', 'mesh', 'json', 'json', 'text', 'file']);
  });
});
