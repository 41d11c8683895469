import { ConfigError, text, type Env } from './env';

// ANON_KEY and SERVICE_ROLE_KEY: the auth API's two keys set by the operator, under the names
// self-hosted Supabase gives them, instead of the ones the server makes and keeps in its database
// (reference-app/server/README.md, "Auth keys"). The server compares them as given, as Supabase's
// gateway does; it does not need, or check, a JWT secret. What it checks guards against the
// mistakes that would hand out the admin API (docs/security.md, "The auth service-role key").

export interface ApiKeysConfig {
  /** ANON_KEY: the publishable key, public by design (browsers send it). */
  anon: string | undefined;
  /** SERVICE_ROLE_KEY: the admin API's key, a credential for every account. */
  serviceRole: string | undefined;
}

/** A guessable service-role key would open every account: at least this many characters. */
export const MIN_SERVICE_ROLE_KEY_LENGTH = 32;
const MAX_KEY_LENGTH = 4096;
/** Visible ASCII, no spaces: a key travels in an `apikey` header and an `Authorization: Bearer` header. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** The payload of a JWT (`a.b.c`), or undefined when the key is not one. */
function jwtPayload(key: string): Record<string, unknown> | undefined {
  const parts = key.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Checks one key. Errors never quote SERVICE_ROLE_KEY's value: they end up in logs. */
function key(env: Env, name: 'ANON_KEY' | 'SERVICE_ROLE_KEY', role: 'anon' | 'service_role', production: boolean): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const secret = name === 'SERVICE_ROLE_KEY';
  const shown = secret ? `${value.length} characters` : JSON.stringify(value);
  if (!HEADER_SAFE.test(value) || value.length > MAX_KEY_LENGTH)
    throw ConfigError.refused(name, `${name} must be printable ASCII without spaces, up to ${MAX_KEY_LENGTH} characters (got ${shown})`);
  if (secret && value.length < MIN_SERVICE_ROLE_KEY_LENGTH)
    throw ConfigError.refused(
      name,
      `${name} must be at least ${MIN_SERVICE_ROLE_KEY_LENGTH} characters, got ${value.length}: it opens every account (make one with \`openssl rand -base64 32\`)`,
    );
  // Self-hosted Supabase's keys are JWTs naming their role: one for the other means they were swapped.
  const claims = jwtPayload(value);
  if (claims && typeof claims.role === 'string' && claims.role !== role)
    throw ConfigError.refused(
      name,
      `${name} is a JWT for the role "${claims.role}", not "${role}": are ANON_KEY and SERVICE_ROLE_KEY swapped?`,
    );
  // The demo keys in Supabase's docker/.env and its CLI (issuer "supabase-demo") are published:
  // as a service-role key in production, anyone could use the admin API.
  if (secret && production && claims?.iss === 'supabase-demo')
    throw ConfigError.refused(
      name,
      `${name} is Supabase's published demo key (issuer "supabase-demo"): with NODE_ENV=production anyone could use the admin API; make your own (\`openssl rand -base64 32\`)`,
    );
  return value;
}

export function loadApiKeysConfig(env: Env, production: boolean): ApiKeysConfig {
  const anon = key(env, 'ANON_KEY', 'anon', production);
  const serviceRole = key(env, 'SERVICE_ROLE_KEY', 'service_role', production);
  // The publishable key is sent by every browser: as the service-role key it would make everyone an admin.
  if (anon !== undefined && anon === serviceRole)
    throw ConfigError.refused('SERVICE_ROLE_KEY', 'SERVICE_ROLE_KEY must differ from ANON_KEY: the publishable key is public');
  return { anon, serviceRole };
}
