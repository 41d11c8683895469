import { API_KEY_DEFAULT_LIFETIME_DAYS } from '@limelight/rules';
import { createApiClient, type ClientOptions } from './http';
import type { ApiKey, CreatedApiKey, ProfileResult, ProfileUpdate, RegistryCredential, UpsertPatPayload, UsageStatistics } from './types';

export const PROFILE_PREFIX = '/v1/profile/';
// product-rules §9: an API key's default lifetime is the platform's rule (@limelight/rules).
export { API_KEY_DEFAULT_LIFETIME_DAYS };

/** Profile group (product-rules §7): every call needs a token. */
export function createProfileClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: PROFILE_PREFIX, defaultAuth: 'required' });
  return {
    client,
    signInSignUp: () => client.post<ProfileResult>('sign_in_sign_up'),
    profile: () => client.get<ProfileResult>('profile'),
    agreeToTerms: () => client.post<ProfileResult>('agree_to_terms'),
    updateProfile: (fields: ProfileUpdate) => client.post<ProfileResult>('update_profile', fields),
    apiKeys: () => client.get<ApiKey[]>('api_keys'),
    /** A key valid `expires_in_days`, called `name` (the server's 'API key' when none is given). */
    createApiKey: (expires_in_days: number = API_KEY_DEFAULT_LIFETIME_DAYS, name?: string) =>
      client.post<CreatedApiKey>('create_api_key', name === undefined ? { expires_in_days } : { expires_in_days, name }),
    deleteApiKey: (api_key_id: string) => client.post<{ id: string }>('delete_api_key', { api_key_id }),
    usageStatistics: () => client.get<UsageStatistics>('usage_statistics'),
    upsertPat: (payload: UpsertPatPayload) =>
      client.post<RegistryCredential>('upsert_pat', { ...payload, platform: payload.platform ?? 'dockerhub' }),
    deletePat: (pat_id: string) => client.post<{ id: string }>('delete_pat', { pat_id }),
    getPatToken: () => client.get<RegistryCredential[]>('get_pat_token'),
  };
}

/** The profile API client: the user's profile, API keys and registry credentials. */
export type ProfileClient = ReturnType<typeof createProfileClient>;
