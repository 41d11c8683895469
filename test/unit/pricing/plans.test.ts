import { describe, expect, it } from 'vitest';
import { defaultStrings } from '../../../src/config';
import { PLAN_KEYS, buildPlans } from '../../../src/pricing';
import { BILLING_PATH, SIGN_UP_PATH } from '../../../src/pricing/constants';
import { formatPlanPrice, planButtonTarget } from '../../../src/pricing/plans';

const plans = buildPlans(defaultStrings.pricing.plans);
const plan = (key: string) => plans.find((p) => p.key === key)!;

describe('plans (product-rules §9 "Plans", §3 Plan, §6 plan tiers)', () => {
  it('product-rules §6: four tiers in order Free, Plus, Pro, Enterprise', () => {
    expect(PLAN_KEYS).toEqual(['free', 'plus', 'pro', 'enterprise']);
    expect(plans.map((p) => p.title)).toEqual(['Free', 'Plus', 'Pro', 'Enterprise']);
  });

  it('product-rules §9: Free is $0', () => {
    expect(plan('free')).toMatchObject({ currency: 'USD', priceMajor: 0, priceCents: 0, strikeThrough: null, badge: null });
    expect(formatPlanPrice(plan('free'))).toBe('$0');
  });

  it('product-rules §9: Plus is 4.99 EUR per month', () => {
    expect(plan('plus')).toMatchObject({ currency: 'EUR', priceMajor: 4, priceCents: 99, sub: 'per month' });
    expect(formatPlanPrice(plan('plus'))).toBe('€4.99');
  });

  it("product-rules §9: Pro is 19.99 EUR per month, struck-through '$29,99', badge 'Most Popular'", () => {
    expect(plan('pro')).toMatchObject({ currency: 'EUR', priceMajor: 19, priceCents: 99, strikeThrough: '$29,99', badge: 'Most Popular' });
    expect(formatPlanPrice(plan('pro'))).toBe('€19.99');
    expect(plans.filter((p) => p.badge)).toHaveLength(1);
  });

  it('product-rules §9: Enterprise is from 39.99 per person per month', () => {
    expect(plan('enterprise')).toMatchObject({ priceMajor: 39, priceCents: 99, pricePrefix: 'from', sub: 'per person per month' });
  });

  it('product-rules §9/§6: features name hosting limits, support, early access and the enterprise extras', () => {
    expect(plan('free').features.join(' ')).toMatch(/free public hosting/i);
    expect(plan('plus').features).toContain('Private hosting for up to 2 services');
    expect(plan('pro').features).toEqual(
      expect.arrayContaining(['Private hosting for up to 5 services', 'Premium support', 'Early access to new features']),
    );
    expect(plan('enterprise').features).toEqual(
      expect.arrayContaining([
        'Unlimited private hosting',
        'Shared organisation balance',
        'Single sign-on (SSO)',
        'Service level agreement (SLA)',
        'Audit logs',
      ]),
    );
    for (const p of plans) {
      expect(p.features.length).toBeGreaterThan(2);
      expect(p.buttonText).toBeTruthy();
      expect(p.active).toBe(true);
    }
  });

  it('product-rules §9: the button goes to billing when logged in, otherwise to sign-up', () => {
    expect(BILLING_PATH).toBe('/account/billing');
    expect(SIGN_UP_PATH).toBe('/signinup?page_state=0');
    expect(planButtonTarget(true)).toBe('/account/billing');
    expect(planButtonTarget(false)).toBe('/signinup?page_state=0');
    expect(planButtonTarget(null)).toBe('/signinup?page_state=0');
    expect(planButtonTarget(undefined)).toBe('/signinup?page_state=0');
  });

  it('takes its words from the strings table', () => {
    const custom = buildPlans({
      ...defaultStrings.pricing.plans,
      mostPopular: 'Beliebt',
      pro: { ...defaultStrings.pricing.plans.pro, title: 'Profi' },
    });
    expect(custom.find((p) => p.key === 'pro')).toMatchObject({ title: 'Profi', badge: 'Beliebt' });
  });
});
