import { z } from '@hono/zod-openapi';

// Request and response schemas of /v1/support (checked against src/api by v1/contract.ts).

export const SubscriptionOptionSchema = z
  .object({ id: z.number(), display_value: z.string(), description: z.string() })
  .openapi('SubscriptionOption');

export const NewsletterSchema = z
  .object({
    email: z.email('must be a valid e-mail address').max(254),
    products: z.array(z.number('must list option ids').int()).max(50),
  })
  .openapi('Newsletter');

export const UnsubscribeSchema = NewsletterSchema.extend({
  token: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'The token of an unsubscribe link; not needed when signed in as the address' }),
}).openapi('Unsubscribe');

export const MAX_ATTACHMENTS = 5;

export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export const MAX_TOTAL_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export const ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/json',
  'application/zip',
] as const;

export const SupportSchema = z
  .object({
    topic: z.string().trim().min(1, 'must not be empty').max(100),
    subject: z.string().trim().min(1, 'must not be empty').max(200),
    message: z.string().trim().min(1, 'must not be empty').max(10_000),
    attachments: z
      .array(
        z.object({
          filename: z
            .string()
            .trim()
            .min(1)
            .max(200)
            .refine((name) => !/[/\\]/.test(name) && ![...name].some((ch) => ch.charCodeAt(0) < 32), 'must be a plain file name'),
          content_type: z.enum(ATTACHMENT_TYPES, `must be one of ${ATTACHMENT_TYPES.join(', ')}`),
          data_base64: z.string().max(Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 8, 'exceeds 5 MB'),
        }),
      )
      .max(MAX_ATTACHMENTS, `at most ${MAX_ATTACHMENTS} attachments`)
      .optional(),
  })
  .openapi('Support');
