import { z } from '@hono/zod-openapi';
import { iso } from '../api/schemas';

// Request and response schemas of /v1/payment (checked against src/api by v1/contract.ts).

export const PlanSchema = z
  .object({
    key: z.enum(['free', 'plus', 'pro', 'enterprise']),
    title: z.string(),
    sub: z.string(),
    currency: z.string(),
    priceMajor: z.number(),
    priceCents: z.number(),
    strikeThrough: z.string().nullable().optional(),
    buttonText: z.string(),
    badge: z.string().nullable().optional(),
    active: z.boolean(),
    features: z.array(z.string()),
  })
  .openapi('Plan');

export const BalanceSchema = z
  .object({
    balance: z.number(),
    reserved: z
      .number()
      .optional()
      .openapi({ description: 'Held by queued and running jobs (docs/jobs.md: holds); available = balance − reserved' }),
    credit_price: z
      .object({
        currency: z.string().openapi({ description: 'ISO 4217, lower case' }),
        amount_minor: z.number().int().openapi({ description: 'One credit’s price in the currency’s minor unit (cents)' }),
      })
      .optional()
      .openapi({ description: 'What a credit costs, so a buyer sees the price with its currency before paying' }),
  })
  .openapi('Balance');

export const TransactionSchema = z
  .object({
    id: z.string(),
    amount: z.number(),
    kind: z.enum(['sign_up_bonus', 'purchase', 'usage', 'payout', 'earning', 'adjustment']),
    description: z.string(),
    created_at: iso,
  })
  .openapi('Transaction');

export const CheckoutSessionSchema = z
  .object({ id: z.string(), url: z.string(), status: z.enum(['open', 'complete', 'expired']) })
  .openapi('CheckoutSession');

export const MAX_CREDITS_PER_PURCHASE = 1_000_000;

export const BuyCreditSchema = z
  .object({
    quantity: z
      .number('must be a number of credits')
      .int('must be a whole number of credits')
      .min(1, 'must be at least 1')
      .max(MAX_CREDITS_PER_PURCHASE, `must be at most ${MAX_CREDITS_PER_PURCHASE}`),
    success_url: z.string().max(2000).optional(),
    cancel_url: z.string().max(2000).optional(),
  })
  .openapi('BuyCredit');

export const SubscriptionSchema = z
  .object({
    plan_type: z.enum(['free', 'plus', 'pro', 'enterprise']),
    status: z.enum(['none', 'active', 'canceled', 'past_due']),
    cancel_at_period_end: z.boolean(),
    current_period_end: iso.nullable(),
    checkout_url: z.string().nullable().optional(),
  })
  .openapi('Subscription');

export const SubscriptionCreateSchema = z
  .object({
    plan_type: z.enum(['free', 'plus', 'pro', 'enterprise'], 'must be one of free, plus, pro, enterprise'),
    cancel_url: z.string().max(2000),
    success_url: z.string().max(2000),
  })
  .openapi('SubscriptionCreate');

export const CheckoutDetailSchema = z
  .object({
    id: z.string(),
    status: z.enum(['open', 'complete', 'expired']),
    purpose: z.enum(['credits', 'subscription', 'plan_change']),
    quantity: z.number(),
    plan_type: z.enum(['free', 'plus', 'pro', 'enterprise']).nullable(),
    amount_minor: z.number().openapi({ description: 'Amount in the currency’s minor unit (cents)' }),
    currency: z.string(),
    completed_at: iso.nullable(),
  })
  .openapi('CheckoutDetail');

export const ReceiptSchema = z
  .object({
    id: z.string().openapi({ description: 'The checkout (or plan change) the receipt is for; also the receipt number' }),
    date: iso,
    kind: z.enum(['credits', 'subscription', 'plan_change']),
    description: z.string(),
    amount_minor: z.number().openapi({ description: 'Cents; negative for a refund (a downgrade’s prorated difference)' }),
    currency: z.string(),
    status: z.enum(['paid', 'refunded']),
  })
  .openapi('Receipt');

export const SubscriptionChangeSchema = z
  .object({ plan_type: z.enum(['plus', 'pro'], 'must be plus or pro (the plans a subscription can change between)') })
  .openapi('SubscriptionChange');
