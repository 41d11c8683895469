// The OpenAPI document limelight.serve generates (sdk/python/tests/apps/typed_app.py) goes through
// the platform's importer as a publisher's would: every typed input becomes an endpoint parameter
// with its type, bounds, step, enum and default, files become file parameters, a file answer an
// image output, a GET endpoint query parameters, and nothing is left unsupported.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOpenApi, type ImportResult } from '../../../reference-app/server/publishing/openapiImport';
import { findServePython, runPython } from '../../setup/servePython';

const found = findServePython();
if (found.skip) console.warn(`limelight.serve OpenAPI import test skipped: ${found.skip}`);
const APPS = fileURLToPath(new URL('../../../sdk/python/tests/apps', import.meta.url));

describe.skipIf(found.skip)('a limelight.serve app through the endpoint importer', () => {
  let imported: ImportResult;
  const load = () => imported;

  beforeAll(async () => {
    const json = runPython(found.python!, 'import json, typed_app; print(json.dumps(typed_app.app.openapi()))', [APPS]);
    imported = await importOpenApi(JSON.parse(json));
  }, 60_000);

  it('imports every endpoint with nothing unsupported', async () => {
    const { endpoints, unsupported } = load();
    expect(unsupported).toEqual([]);
    expect(endpoints.map((e) => [e.method, e.path, e.output?.type])).toEqual([
      ['POST', '/count', 'json'],
      ['POST', '/transcribe', 'json'],
      ['POST', '/thumbnail', 'image'],
      ['GET', '/hello', 'json'],
    ]);
    expect(endpoints[0]!.description).toBe('Counts the words of a text.');
  });

  it("reads each endpoint's time limit from x-limelight-time-limit-s (none when the app set none)", async () => {
    const { endpoints } = load();
    expect(endpoints.map((e) => e.time_limit_s)).toEqual([60, undefined, undefined, undefined]);
    const odd = await importOpenApi({
      openapi: '3.1.0',
      paths: {
        '/a': { post: { 'x-limelight-time-limit-s': 0.5, responses: {} } },
        '/b': { post: { 'x-limelight-time-limit-s': 99_999, responses: {} } },
        '/c': { post: { 'x-limelight-time-limit-s': 'soon', responses: {} } },
      },
    });
    expect(odd.endpoints.map((e) => e.time_limit_s)).toEqual([1, 3600, undefined]);
  });

  it('keeps types, bounds, steps, enums, defaults and descriptions; the Job parameter is not an input', async () => {
    const { endpoints } = load();
    const count = Object.fromEntries(endpoints[0]!.parameters.map((p) => [p.name, p]));
    expect(Object.keys(count)).toEqual(['text', 'unit', 'steps', 'strength', 'voice', 'options', 'tags']);
    expect(count.text).toEqual({ name: 'text', type: 'string', required: true, description: 'The text to count' });
    expect(count.unit).toMatchObject({ type: 'string', required: false, enum: ['words', 'chars'], default: 'words' });
    expect(count.steps).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 20, description: 'Denoising steps' });
    expect(count.strength).toMatchObject({ type: 'number', minimum: 0, maximum: 1, step: 0.05, default: 0.5 });
    expect(count.voice).toMatchObject({ type: 'string', enum: ['low', 'high'], default: 'low' });
    expect(count.options).toMatchObject({ type: 'object', required: false });
    expect(count.tags).toMatchObject({ type: 'array', items: { type: 'string' }, default: [] });
  });

  it('makes media inputs file parameters and GET inputs query parameters', async () => {
    const { endpoints } = load();
    const [, transcribe, thumbnail, hello] = endpoints;
    expect(transcribe!.parameters.map((p) => [p.name, p.type, p.required])).toEqual([
      ['audio', 'file', true],
      ['language', 'string', false],
      ['attachment', 'file', false],
    ]);
    expect(thumbnail!.parameters.find((p) => p.name === 'width')).toMatchObject({ type: 'integer', minimum: 16, maximum: 1024 });
    expect(hello!.parameters.map((p) => [p.name, p.type, p.maximum])).toEqual([
      ['name', 'string', undefined],
      ['times', 'integer', 5],
    ]);
  });
});
