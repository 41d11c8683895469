// The auth API's version (GoTrue's header, which supabase-js reads to pick where an error's code
// is: auth/errors.ts). Every /auth/v1 answer carries it, the database outage's
// (databaseOutage.ts) included, so it lives below both.

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
export const API_VERSION = '2024-01-01';
