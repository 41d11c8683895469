// Limits shared by several parts of the server.

/**
 * Largest user_metadata, in bytes of UTF-8 JSON. Access tokens carry it base64url-encoded (4/3
 * larger) next to the other claims, and a request whose headers exceed 16 KB is refused by
 * Node with 431 before any code runs: a larger value would lock its user out of every API.
 */
export const MAX_USER_METADATA_BYTES = 8 * 1024;

/**
 * How long a session's state (live, MFA factor) is trusted without asking the database again:
 * the API's check (api/sessionState.ts) and the catalogue cache's (http/catalogueCache.ts), so a
 * sign-out takes effect within this time on every server process.
 */
export const SESSION_STATE_CACHE_MS = 4_000;

export const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
