import { OpenAPIHono } from '@hono/zod-openapi';
import type { EndpointOutput, ServiceEndpoint } from '@limelight/widgets/api';
import { endpointInputSchema, type JsonSchema } from '@limelight/widgets/run';
import { CREATE_REFUSED_429, FieldErrorSchema, FileRefSchema, JobErrorBodySchema, JobListSchema, JobSchema } from '../jobs/schemas';

// The OpenAPI 3.1 document of one service: how to run each of its endpoints through the job API
// (docs/jobs.md), with the endpoint's input as JSON Schema (from the same parameters the server
// validates against, src/run/schema.ts) and its output where the endpoint declares a type.
// Generators (openapi-typescript, openapi-generator) and the SDKs' type generators read it
// (docs/sdk.md). Pure: the route (routes.ts) loads the service and checks who may see it.

export interface ServiceForDocument {
  id: string;
  display_name: string | null;
  model_desc: string | null;
  is_public: boolean;
  endpoints: ServiceEndpoint[];
}

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The job API's shared schemas (Job, FileRef, errors) exactly as /v1/openapi.json describes
 * them: generated once from the same Zod schemas, so the two documents cannot drift.
 */
let sharedComponents: Record<string, Schema> | undefined;
function jobComponents(): Record<string, Schema> {
  if (sharedComponents) return sharedComponents;
  const app = new OpenAPIHono();
  for (const [name, schema] of Object.entries({
    Job: JobSchema,
    JobList: JobListSchema,
    FileRef: FileRefSchema,
    FieldError: FieldErrorSchema,
    JobApiError: JobErrorBodySchema,
  })) {
    app.openAPIRegistry.register(name, schema);
  }
  const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'components', version: '1' } });
  sharedComponents = (document.components?.schemas ?? {}) as Record<string, Schema>;
  return sharedComponents;
}

/** Where a media result puts its file, by output type (the local demo runtimes and docs/jobs.md follow it). */
const MEDIA_KEY: Partial<Record<EndpointOutput['type'], string>> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  mesh: 'mesh',
  file: 'file',
};

/** The result of a FINISHED job of this endpoint, as far as its declared output type tells. */
export function endpointOutputSchema(endpoint: Pick<ServiceEndpoint, 'output'>): Schema {
  const type = endpoint.output?.type ?? 'json';
  const mediaKey = MEDIA_KEY[type];
  if (mediaKey) {
    return {
      type: 'object',
      description: `A ${type} result: the file is a FileRef (url, content_type, size) under "${mediaKey}"`,
      properties: { [mediaKey]: ref('FileRef') },
      required: [mediaKey],
      additionalProperties: true,
    };
  }
  if (type === 'text') {
    return {
      type: 'object',
      description: endpoint.output?.streaming
        ? 'The text; while the job runs, result.text is the text so far (stream the job to read it)'
        : 'The text',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: true,
    };
  }
  return { type: 'object', description: 'JSON result', additionalProperties: true };
}

/** `/generate` -> `generate`; `/v2/images/edit` -> `v2_images_edit` (operation ids and names). */
export const endpointName = (path: string) =>
  path
    .replace(/^\/+|\/+$/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase() || 'root';

/** Operation id of an endpoint's run operation, e.g. `run_generate`. */
export const runOperationId = (path: string) => `run_${endpointName(path)}`;

const jsonContent = (schema: Schema) => ({ 'application/json': { schema } });
const problem = (description: string) => ({ description, content: jsonContent(ref('JobApiError')) });

const ERRORS = {
  401: problem('Missing or invalid credentials (send Authorization: Bearer <API key or access token>)'),
  402: problem('Not enough credits for the estimated cost; no job was created. detail links to /account/billing'),
  404: problem('Unknown service, endpoint or job (another user’s job is 404 too)'),
  409: problem('The Idempotency-Key was used for a different request, or the service is paused'),
  422: problem('Invalid input: errors has one entry per bad field (name, rule, message); nothing was queued or charged'),
  503: problem('No runtime serves this service on this server'),
};

/** `input` as the job envelope carries it for this endpoint, and its result once FINISHED. */
function typedJob(inputName: string, outputName: string): Schema {
  return {
    allOf: [
      ref('Job'),
      {
        type: 'object',
        properties: {
          input: ref(inputName),
          result: { anyOf: [ref(outputName), { type: 'object', properties: { text: { type: 'string' } } }, { type: 'null' }] },
        },
      },
    ],
  };
}

const jobIdParameter = { name: 'job_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** Operations shared by every endpoint: read, cancel, stream a job, upload a file. */
function jobOperations(): Schema {
  const jobAnswer = (description: string) => ({ description, content: jsonContent(ref('Job')) });
  return {
    '/v1/jobs/{job_id}': {
      get: {
        operationId: 'get_job',
        tags: ['jobs'],
        summary: 'A job: its status, progress and, once FINISHED, its result',
        parameters: [jobIdParameter],
        responses: { 200: jobAnswer('The job'), 401: ERRORS[401], 404: ERRORS[404] },
      },
    },
    '/v1/jobs/{job_id}/cancel': {
      post: {
        operationId: 'cancel_job',
        tags: ['jobs'],
        summary: 'Cancel a job (a job that already ended is answered unchanged)',
        parameters: [jobIdParameter],
        responses: { 200: jobAnswer('The job after cancelling'), 401: ERRORS[401], 404: ERRORS[404] },
      },
    },
    '/v1/jobs/{job_id}/stream': {
      get: {
        operationId: 'stream_job',
        tags: ['jobs'],
        summary: 'Server-sent events: `event: job`, `id: <version>`, `data: <Job>` on every change; ends after the final status',
        description: 'Reconnect with Last-Event-ID to resume without losing a change; `: heartbeat` comments every 15 s of silence.',
        parameters: [jobIdParameter, { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }],
        responses: {
          200: { description: 'Event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          401: ERRORS[401],
          404: ERRORS[404],
        },
      },
    },
    '/v1/files': {
      post: {
        operationId: 'upload_file',
        tags: ['files'],
        summary: 'Upload one file for a file input; pass the answered url as the parameter value',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
                required: ['file'],
              },
            },
          },
        },
        responses: {
          201: { description: 'Stored', content: jsonContent(ref('FileRef')) },
          401: ERRORS[401],
          413: problem('File too large'),
          415: problem('File type not accepted'),
          422: problem('No file field'),
        },
      },
    },
  };
}

export interface ServiceDocumentOptions {
  /** The site's origin, e.g. https://limelight.example (the document's server). */
  publicUrl: string;
  brandName: string;
}

/** Path of an endpoint's run operation; POST /v1/services/{service_id}/run/<endpoint> serves it (routes.ts). */
export const runPath = (serviceId: string, endpointPath: string) =>
  `/v1/services/${serviceId.split('/').map(encodeURIComponent).join('/')}/run/${endpointPath.replace(/^\/+/, '')}`;

export function serviceOpenApiDocument(service: ServiceForDocument, options: ServiceDocumentOptions) {
  const schemas: Record<string, Schema> = { ...jobComponents() };
  const paths: Record<string, Schema> = {};
  for (const endpoint of service.endpoints) {
    const name = endpointName(endpoint.path);
    const inputName = `${pascal(name)}Input`;
    const outputName = `${pascal(name)}Output`;
    const jobName = `${pascal(name)}Job`;
    schemas[inputName] = toOpenApiSchema(endpointInputSchema(endpoint));
    schemas[outputName] = endpointOutputSchema(endpoint);
    schemas[jobName] = typedJob(inputName, outputName);
    paths[runPath(service.id, endpoint.path)] = {
      post: {
        operationId: runOperationId(endpoint.path),
        tags: ['run'],
        summary: endpoint.description || `Run ${endpoint.path}`,
        description: [
          `Queues a job of ${service.id} ${endpoint.path}; the same as POST /v1/jobs with`,
          `{"service_id": ${JSON.stringify(service.id)}, "endpoint": ${JSON.stringify(endpoint.path)}, "input": …}.`,
          'Prefer: wait=N (N ≤ 60) answers when the job ends or after N seconds. Send an Idempotency-Key and repeat it on every',
          'retry: the same key answers the same job (200, Idempotent-Replayed: true), never a second charge.',
        ].join(' '),
        'x-lime-endpoint': endpoint.path,
        ...(endpoint.output ? { 'x-lime-output': endpoint.output } : {}),
        parameters: [
          { name: 'Prefer', in: 'header', required: false, schema: { type: 'string', examples: ['wait=60'] } },
          { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 200 } },
        ],
        requestBody: {
          required: true,
          content: jsonContent({
            type: 'object',
            properties: {
              input: ref(inputName),
              webhook: { type: 'string', format: 'uri', description: 'Called when the job ends (Standard Webhooks signature)' },
            },
            required: ['input'],
            additionalProperties: false,
          }),
        },
        responses: {
          200: { description: 'The job created earlier with this Idempotency-Key', content: jsonContent(ref(jobName)) },
          201: { description: 'Job queued (or ended, with Prefer: wait)', content: jsonContent(ref(jobName)) },
          ...ERRORS,
          429: problem(CREATE_REFUSED_429),
        },
      },
    };
  }
  Object.assign(paths, jobOperations());
  const title = service.display_name || service.id;
  return {
    openapi: '3.1.0',
    info: {
      title: `${title} (${options.brandName})`,
      version: '1',
      description: [
        service.model_desc ?? '',
        `Runs ${service.id} through the job API: each endpoint is one operation that queues a job; read it with get_job,`,
        'follow it with stream_job (server-sent events) and upload file inputs with upload_file. Statuses: QUEUED, PROCESSING,',
        'FINISHED, FAILED, TIMEOUT, CANCELLED (the last four are final). Errors are {"detail": "…"}; 422 adds errors per field.',
      ]
        .filter(Boolean)
        .join('\n\n'),
    },
    servers: [{ url: options.publicUrl }],
    'x-lime-service': { id: service.id, public: service.is_public },
    tags: [
      { name: 'run', description: `The endpoints of ${service.id}` },
      { name: 'jobs', description: 'Jobs of any endpoint' },
      { name: 'files', description: 'File inputs' },
    ],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (lime_…, Account > API keys) or an access token from the auth API',
        },
      },
    },
  };
}

const pascal = (name: string) =>
  name
    .split('_')
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('') || 'Root';

/**
 * src/run's JSON Schema is already 2020-12 (what OpenAPI 3.1 uses); only our file marker is
 * made a proper extension, and file inputs say they are URLs.
 */
function toOpenApiSchema(schema: JsonSchema): Schema {
  const out: Schema = { ...schema };
  if (schema['x-lime-file'])
    out.description = [schema.description, 'A file: a URL from upload_file, or a data: URI up to 1 MB'].filter(Boolean).join('. ');
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, toOpenApiSchema(v)]));
  if (schema.items) out.items = toOpenApiSchema(schema.items);
  return out;
}
