import { z } from '@hono/zod-openapi';

// Schemas shared by every /v1 feature. Each feature's own request and response schemas live in
// its folder (e.g. profile/schemas.ts); contract.ts checks them against the client's types.

export const ErrorSchema = z.object({ detail: z.string() }).openapi('Error');

export const iso = z.string().openapi({ format: 'date-time' });

export const IdResultSchema = z.object({ id: z.string() });
