import type { Provider } from '@supabase/auth-js';

/** The four social sign-in providers of product-rules §7, in display order. */
export const SOCIAL_PROVIDERS = ['google', 'azure', 'github', 'facebook'] as const satisfies readonly Provider[];
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** product-rules §7: the cloud provider asks for these scopes. */
export const AZURE_SCOPES = 'openid profile email offline_access';

/** Extra OAuth scopes per provider (space separated, as auth-js takes them). */
export function scopesFor(provider: SocialProvider): string | undefined {
  return provider === 'azure' ? AZURE_SCOPES : undefined;
}

export function isSocialProvider(value: unknown): value is SocialProvider {
  return typeof value === 'string' && (SOCIAL_PROVIDERS as readonly string[]).includes(value);
}
