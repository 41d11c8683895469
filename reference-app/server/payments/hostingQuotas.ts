// Container hosting quotas per account, by plan (docs/publishing.md, "Hosting quotas"). A
// service's min_instances run all the time and its max_instances may all run under load, so an
// account's container services together may ask at most the plan's numbers; the image an
// instance runs may be at most `imageMb` unpacked. The runner's own capacity caps what really
// starts (hosting/capacity.ts); these keep one account from asking for all of it.

export interface HostingQuota {
  /** Sum of min_instances over the account's container services. */
  minInstances: number;
  /** Sum of max_instances over the account's container services. */
  maxInstances: number;
  /** An image's unpacked size, in MB. */
  imageMb: number;
}

export const HOSTING_QUOTAS = {
  free: { minInstances: 0, maxInstances: 2, imageMb: 4_096 },
  plus: { minInstances: 1, maxInstances: 8, imageMb: 8_192 },
  pro: { minInstances: 4, maxInstances: 32, imageMb: 16_384 },
  enterprise: { minInstances: 32, maxInstances: 256, imageMb: 32_768 },
} as const satisfies Record<string, HostingQuota>;

export type Plan = keyof typeof HOSTING_QUOTAS;

/** The plan's quota; an unknown plan gets the free plan's, never more. */
export const hostingQuotaOf = (plan: string): HostingQuota => HOSTING_QUOTAS[plan as Plan] ?? HOSTING_QUOTAS.free;

export interface InstanceAsk {
  minInstances: number;
  maxInstances: number;
}

const instances = (n: number) => `${n} instance${n === 1 ? '' : 's'}`;

/**
 * Why this service's ask does not fit the plan beside the account's other container services
 * (`elsewhere`), or null. The words name the plan, the numbers and what to change.
 */
export function hostingQuotaProblem(plan: string, ask: InstanceAsk, elsewhere: InstanceAsk): string | null {
  const quota = hostingQuotaOf(plan);
  const name = plan in HOSTING_QUOTAS ? plan : 'free';
  const over = (field: keyof InstanceAsk, what: string) => {
    if (ask[field] + elsewhere[field] <= quota[field]) return null;
    const others = elsewhere[field] > 0 ? ` and you have ${instances(elsewhere[field])} elsewhere` : '';
    return `Your ${name} plan allows ${instances(quota[field])} ${what} across your container services; this service asks ${ask[field]}${others}`;
  };
  const problems = [over('minInstances', 'always on (min_instances)'), over('maxInstances', 'at most (max_instances)')].filter(Boolean);
  return problems.length ? problems.join('; ') : null;
}
