// Limits shared by several parts of the server.

/**
 * Largest user_metadata, in bytes of UTF-8 JSON. Access tokens carry it base64url-encoded (4/3
 * larger) next to the other claims, and a request whose headers exceed 16 KB is refused by
 * Node with 431 before any code runs: a larger value would lock its user out of every API.
 */
export const MAX_USER_METADATA_BYTES = 8 * 1024;

export const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
