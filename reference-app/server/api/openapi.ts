import { OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Env } from 'hono';
import type { FieldError } from '@limelight/widgets/api';
import type { CoreConfig } from '../config/core';
import { DomainError } from '../errors';
import { domainErrorAnswer } from './errors';
import { ErrorSchema } from './schemas';

// Shared pieces of the OpenAPI routes: the app factory with FastAPI-style validation errors,
// and response declarations.

export type ApiApp<E extends Env = Env> = OpenAPIHono<E>;

/** `field: message; other.field: message`, from a Zod error. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Zod's issues as one FieldError per bad field (`errors` of a 422), so forms can mark each field. */
export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    name: issue.path.map(String).join('.') || 'body',
    rule: issue.code === 'custom' ? 'invalid' : issue.code,
    message: issue.message,
  }));
}

/** Every route's bad request: 422 with `detail` for one-message clients and `errors` per field. */
export function createApiApp<E extends Env = Env>(): ApiApp<E> {
  return new OpenAPIHono<E>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const error = result.error as z.ZodError;
        const { status, body } = domainErrorAnswer(new DomainError('invalid', formatIssues(error), fieldErrorsOf(error)));
        return c.json(body, status);
      }
    },
  });
}

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const ERROR_DESCRIPTIONS = {
  401: 'Missing, invalid or expired credentials',
  402: 'Not enough credits, or the plan does not allow it; detail links to billing',
  403: 'Not allowed with these credentials',
  404: 'Not found',
  409: 'Not possible in the current state',
  413: 'Request too large',
  415: 'Unsupported media type',
  422: 'Invalid input; detail names the field',
  429: 'Too many requests',
  502: 'The payment provider failed',
} as const;

export function errors<K extends keyof typeof ERROR_DESCRIPTIONS>(...codes: K[]) {
  return Object.fromEntries(codes.map((code) => [code, json(ErrorSchema, ERROR_DESCRIPTIONS[code])])) as {
    [P in K]: ReturnType<typeof json<typeof ErrorSchema>>;
  };
}

export const bearer = [{ bearer: [] as string[] }];

export function body<T extends z.ZodType>(schema: T) {
  return { body: { content: { 'application/json': { schema } }, required: true } };
}

/** Serves the OpenAPI document of everything mounted on `v1` at /v1/openapi.json. */
export function describeApi<E extends Env>(v1: ApiApp<E>, config: Pick<CoreConfig, 'brandName' | 'publicUrl'>) {
  v1.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token from the auth API (/auth/v1), or an API key (lime_…)',
  });
  v1.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: `${config.brandName} platform API`,
      version: '1',
      description: 'Model catalogue, profile, payment and support calls. Errors are JSON objects {"detail": "..."}.',
    },
    servers: [{ url: `${config.publicUrl}/v1` }],
  });
}
