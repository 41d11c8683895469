import { OpenAPIHono, type z } from '@hono/zod-openapi';
import type { ApiDeps } from './deps';
import { ErrorSchema } from './schemas';

// Shared pieces of the OpenAPI routes: the app factory with FastAPI-style validation errors,
// and response declarations.

export type ApiApp = OpenAPIHono;

/** `field: message; other.field: message`, from a Zod error. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export function createApiApp(): ApiApp {
  return new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) return c.json({ detail: formatIssues(result.error as z.ZodError) }, 422);
    },
  });
}

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const ERROR_DESCRIPTIONS = {
  401: 'Missing, invalid or expired credentials',
  404: 'Not found',
  409: 'Not possible in the current state',
  413: 'Request too large',
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

export type RouteRegistrar = (app: ApiApp, deps: ApiDeps) => void;
