import { describe, expect, it } from 'vitest';
import type { ManagedService } from '@limelight/widgets/api';
import {
  addParameter,
  draftOf,
  emptyDraft,
  endpointDraft,
  errorMap,
  isDirty,
  previewOf,
  removeEndpoint,
  toServiceInput,
  withParameter,
  withRuntime,
  type ServiceDraft,
} from '../../../reference-app/src/pages/publish/serviceDraft';

// The service editor's form state (docs/publishing.md): what the inputs show, and what is sent.

const saved: ManagedService = {
  id: 'sketch-1a2b3c',
  display_name: 'Sketch',
  model_desc: '<p>Draws</p>',
  display_img_url: null,
  model_category: ['txt2img'],
  used_models: ['sdxl', 'controlnet'],
  visibility: 'public',
  status: 'active',
  endpoints: [
    {
      method: 'POST',
      path: '/generate',
      parameters: [
        { name: 'steps', type: 'integer', required: false, default: 20, minimum: 1, maximum: 50, step: 1 },
        { name: 'style', type: 'string', required: false, enum: ['pencil', 'ink'] },
      ],
      output: { type: 'image' },
    },
  ],
  runtime: { type: 'http', base_url: 'https://sketch.example.com', header_names: ['X-Token'], health_path: '/openapi.json' },
  health: null,
  n_usages: 3,
  earnings_credits: 0,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

const named = (patch: Partial<ServiceDraft> = {}): ServiceDraft => ({
  ...emptyDraft(),
  displayName: 'Sketch',
  runtime: { ...emptyDraft().runtime, baseUrl: 'https://sketch.example.com' },
  ...patch,
});

/** A container service as the server answers it (before resources and snapshots existed). */
const storedContainer = {
  type: 'container' as const,
  image: 'docker.io/me/sketch:1',
  registry_credential_id: null,
  gpu: 'a100',
  min_instances: 0,
  max_instances: 2,
  idle_timeout_s: 300,
  port: 8080,
  health_path: '/openapi.json',
  concurrency: 1,
  deployment_status: 'running' as const,
};

describe('service draft', () => {
  it('round-trips a saved service: the draft sends back what was stored, keeping what the form does not edit', () => {
    const draft = draftOf(saved);
    expect(draft.tags).toBe('sdxl, controlnet');
    expect(draft.endpoints[0]!.parameters[0]).toMatchObject({ default: '20', minimum: '1', maximum: '50' });
    const { input, errors } = toServiceInput(draft);
    expect(errors).toEqual([]);
    expect(input.endpoints).toEqual(saved.endpoints);
    expect(input).toMatchObject({
      display_name: 'Sketch',
      model_category: ['txt2img'],
      used_models: ['sdxl', 'controlnet'],
      visibility: 'public',
    });
    // No new header values: the stored secret headers are kept (the PATCH omits `headers`); the
    // health path is sent back as stored.
    expect(input.runtime).toEqual({ type: 'http', base_url: 'https://sketch.example.com', health_path: '/openapi.json' });
  });

  it('the health path (issue 39): empty leaves the server its default, a path without / is refused before saving', () => {
    const http = withRuntime(named(), { kind: 'http', baseUrl: 'https://sketch.example.com' });
    expect(toServiceInput(http).input.runtime).toEqual({ type: 'http', base_url: 'https://sketch.example.com' });
    expect(toServiceInput(withRuntime(http, { healthPath: ' /health ' })).input.runtime).toMatchObject({ health_path: '/health' });
    expect(errorMap(toServiceInput(withRuntime(http, { healthPath: 'health' })).errors)).toEqual({
      'runtime.health_path': 'must be a path starting with /, such as /openapi.json',
    });
  });

  it('starts public with an HTTP runtime, and is dirty only once something changes', () => {
    const draft = emptyDraft();
    expect(draft.visibility).toBe('public');
    expect(isDirty(draft, emptyDraft())).toBe(false);
    expect(isDirty({ ...draft, displayName: 'x' }, emptyDraft())).toBe(true);
  });

  it('names every bad field as the server does: name, path, numbers, defaults, base URL', () => {
    let draft = named({ displayName: ' ', endpoints: [endpointDraft({ method: 'POST', path: 'generate', parameters: [] })] });
    draft = addParameter(draft, 0);
    draft = withParameter(draft, 0, 0, { name: 'steps', type: 'integer', default: '2.5', minimum: 'ten' });
    draft = addParameter(draft, 0);
    draft = withParameter(draft, 0, 1, { type: 'object', default: '{oops' });
    draft = withRuntime(draft, { baseUrl: '' });
    const { errors } = toServiceInput(draft);
    expect(errorMap(errors)).toEqual({
      display_name: 'is required',
      'endpoints.0.path': 'must start with /',
      'endpoints.0.parameters.0.default': 'must be a whole number',
      'endpoints.0.parameters.0.minimum': 'must be a number',
      'endpoints.0.parameters.1.default': 'must be JSON ({…})',
      'endpoints.0.parameters.1.name': 'is required',
      'runtime.base_url': 'is required',
    });
  });

  it('types defaults and allowed values by the parameter type', () => {
    let draft = named({ endpoints: [endpointDraft({ method: 'POST', path: '/p', parameters: [] })] });
    for (const [i, patch] of [
      { name: 'n', type: 'number', default: '7.5', enum: '1, 2.5' },
      { name: 'b', type: 'boolean', default: 'true' },
      { name: 'tags', type: 'array', default: '["a"]' },
      { name: 's', type: 'string', default: 'hi', enum: 'a, b' },
    ].entries()) {
      draft = withParameter(addParameter(draft, 0), 0, i, patch as never);
    }
    const { input, errors } = toServiceInput(draft);
    expect(errors).toEqual([]);
    expect(input.endpoints![0]!.parameters).toEqual([
      { name: 'n', type: 'number', required: false, default: 7.5, enum: [1, 2.5] },
      { name: 'b', type: 'boolean', required: false, default: true },
      { name: 'tags', type: 'array', required: false, default: ['a'] },
      { name: 's', type: 'string', required: false, default: 'hi', enum: ['a', 'b'] },
    ]);
  });

  it('sends new secret headers, and a container deployment with its numbers checked', () => {
    const http = withRuntime(named(), { headers: [{ name: 'X-Token', value: 's3cret' }] });
    expect(toServiceInput(http).input.runtime).toEqual({
      type: 'http',
      base_url: 'https://sketch.example.com',
      headers: { 'X-Token': 's3cret' },
    });

    const container = withRuntime(named(), {
      kind: 'container',
      image: 'docker.io/me/sketch:1',
      gpu: 'a100',
      minInstances: '2',
      maxInstances: '1',
    });
    expect(errorMap(toServiceInput(container).errors)).toEqual({ 'runtime.max_instances': 'must be at least the minimum instances' });
    const fixed = withRuntime(container, { maxInstances: '3' });
    expect(toServiceInput(fixed).input.runtime).toEqual({
      type: 'container',
      image: 'docker.io/me/sketch:1',
      registry_credential_id: null,
      gpu: 'a100',
      min_instances: 2,
      max_instances: 3,
      idle_timeout_s: 300,
      snapshot: true,
    });
  });

  it("keeps a container's resources through an edit, sends what is typed, and names a bad one (issue 47)", () => {
    const stored = { ...storedContainer, resources: { cpu: 0.5, memory_mb: 512, gpu: 0 } };
    // Saving the loaded service sends its resources back: an edit elsewhere never resets them.
    const draft = draftOf({ ...saved, runtime: stored });
    expect(draft.runtime).toMatchObject({ cpu: '0.5', memoryMb: '512', gpus: '0' });
    expect(toServiceInput(draft).input.runtime).toMatchObject({ resources: { cpu: 0.5, memory_mb: 512, gpu: 0 } });
    // Empty fields are left out (the server's defaults); a typed one is sent alone.
    const typed = withRuntime(draft, { cpu: '', memoryMb: '2048', gpus: '' });
    expect(toServiceInput(typed).input.runtime).toMatchObject({ resources: { memory_mb: 2048 } });
    expect(toServiceInput(withRuntime(draft, { cpu: '', memoryMb: '', gpus: '' })).input.runtime).not.toHaveProperty('resources');
    expect(errorMap(toServiceInput(withRuntime(draft, { memoryMb: '1.5 GB', gpus: '0.5' })).errors)).toEqual({
      'runtime.resources.memory_mb': 'must be a whole number',
      'runtime.resources.gpu': 'must be a whole number',
    });
  });

  it('keeps runtime.snapshot through an edit; a server that answers none reads as true (docs/deploy.md)', () => {
    const stored = storedContainer;
    const optedOut = draftOf({ ...saved, runtime: { ...stored, snapshot: false } as typeof stored });
    expect(optedOut.runtime.snapshot).toBe(false);
    expect(toServiceInput(optedOut).input.runtime).toMatchObject({ snapshot: false });
    expect(draftOf({ ...saved, runtime: stored }).runtime.snapshot).toBe(true);
  });

  it('sends back the port and concurrency it has no field for, so an edit never resets what the CLI set', () => {
    const stored = { ...storedContainer, port: 9000, concurrency: 4 };
    const renamed = { ...draftOf({ ...saved, runtime: stored }), displayName: 'Sketch, renamed' };
    expect(toServiceInput(renamed).input.runtime).toMatchObject({ port: 9000, concurrency: 4 });
    // A new container service leaves them to the server's defaults.
    const fresh = toServiceInput(withRuntime(emptyDraft(), { kind: 'container', image: 'docker.io/me/x:1', gpu: 'a100' })).input.runtime;
    expect(fresh).not.toHaveProperty('port');
    expect(fresh).not.toHaveProperty('concurrency');
  });

  it('leaves the built-in demo runtime alone, and previews the draft as the catalogue shows it', () => {
    const demo = draftOf({ ...saved, runtime: { type: 'local-demo' } });
    expect('runtime' in toServiceInput(demo).input).toBe(false);
    const preview = previewOf(removeEndpoint({ ...draftOf(saved), displayName: 'Sketch 2' }, 0), saved, 'Ada');
    expect(preview).toMatchObject({
      id: saved.id,
      display_name: 'Sketch 2',
      owner_name: 'Ada',
      is_public: true,
      endpoints: [],
      n_usages: 3,
    });
  });
});
