// auth/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the keys file and service-role key a client is given, and the attempt limits.
export { keysFile } from './apiKeys';
export { MAX_CODE_ATTEMPTS } from './emailTokens';
export { MAX_CHALLENGE_ATTEMPTS } from './mfa';
export { serviceRoleKey } from './serviceRole';
