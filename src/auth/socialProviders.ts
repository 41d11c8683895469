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

/**
 * The providers the auth server has turned on (GET /auth/v1/settings, `external.<provider>`), in
 * display order. A button for a provider that is off would only come back with an error.
 */
export function enabledProviders(settings: unknown): SocialProvider[] {
  const external = (settings as { external?: Record<string, unknown> } | null)?.external;
  return external ? SOCIAL_PROVIDERS.filter((p) => external[p] === true) : [];
}

/** Asks the auth server which providers are on; none when it cannot be asked. */
export async function fetchEnabledProviders(authUrl: string, authKey: string): Promise<SocialProvider[]> {
  try {
    const response = await fetch(`${authUrl}/auth/v1/settings`, { headers: { apikey: authKey } });
    return response.ok ? enabledProviders(await response.json()) : [];
  } catch {
    return [];
  }
}
