import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, randomUUID, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import type { Access } from './scopes';

// The registry's bearer tokens (Distribution's docs/spec/auth/jwt.md): ES256 JWTs whose header
// carries the signing certificate (x5c); docker-registry trusts them because that certificate is
// its rootcertbundle. The key and its self-signed certificate are made once, with openssl, and
// kept in DATA_DIR/registry, so a restart keeps tokens valid and the registry's config unchanged.

export const REGISTRY_SERVICE = 'limelight-registry';
export const REGISTRY_ISSUER = 'limelight-platform';
/** A registry token's lifetime: a push or pull asks again with its Basic credentials after it. */
export const TOKEN_TTL_S = 600;
/** The runner's pull ticket (its Basic password at the token endpoint): one deploy's pull. */
export const TICKET_TTL_S = 900;
const TICKET_AUDIENCE = 'limelight-registry-pull-ticket';
/** The user name the runner logs in with; a ticket is its password. */
export const RUNNER_USERNAME = 'limelight-runner';

export interface SigningCert {
  certPath: string;
  key: KeyObject;
  publicKey: KeyObject;
  /** The certificate's DER, base64, for the x5c header. */
  x5c: string;
}

/** The token signing key and certificate in `dir`, made on first use. */
export function ensureSigningCert(dir: string): SigningCert {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyPath = path.join(dir, 'token-signing.key');
  const certPath = path.join(dir, 'token-signing.crt');
  if (!existsSync(keyPath) || !existsSync(certPath)) {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650'].concat([
        '-subj',
        '/CN=limelight registry tokens',
        '-keyout',
        keyPath,
        '-out',
        certPath,
      ]),
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  }
  const key = createPrivateKey(readFileSync(keyPath));
  const cert = new X509Certificate(readFileSync(certPath));
  return { certPath, key, publicKey: createPublicKey(key), x5c: cert.raw.toString('base64') };
}

/**
 * What a push token carries beside its access, for the platform's proxy in front of the registry
 * (registry/proxy.ts): the pusher's plan, its storage quota and its cap on an image's unpacked size.
 * docker-registry ignores claims it does not know.
 */
export interface PushLimits {
  plan: string;
  quota_mb: number;
  image_mb: number;
}

/** A registry token granting `access` to `subject` (and, for a push, the pusher's limits). */
export function issueRegistryToken(
  cert: SigningCert,
  subject: string,
  access: Access[],
  ttlS = TOKEN_TTL_S,
  limits?: PushLimits,
): Promise<string> {
  return new SignJWT({ access, ...(limits ? { limelight: limits } : {}) })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', x5c: [cert.x5c] })
    .setIssuer(REGISTRY_ISSUER)
    .setSubject(subject)
    .setAudience(REGISTRY_SERVICE)
    .setIssuedAt()
    .setNotBefore(Math.floor(Date.now() / 1000) - 5)
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlS)
    .setJti(randomUUID())
    .sign(cert.key);
}

/** What a valid registry token says, or null for an invalid or expired one. */
export async function verifyRegistryToken(
  cert: SigningCert,
  token: string,
): Promise<{ subject: string; access: Access[]; limits: PushLimits | undefined } | null> {
  try {
    const { payload } = await jwtVerify(token, cert.publicKey, { issuer: REGISTRY_ISSUER, audience: REGISTRY_SERVICE });
    const access = Array.isArray(payload.access) ? (payload.access as Access[]) : [];
    const limits = payload.limelight as PushLimits | undefined;
    return { subject: String(payload.sub ?? ''), access, limits: typeof limits?.quota_mb === 'number' ? limits : undefined };
  } catch {
    return null;
  }
}

/** The runner's password for pulling `repository`: pull only, that repository only, short-lived. */
export function issuePullTicket(cert: SigningCert, repository: string): Promise<string> {
  return new SignJWT({ repository })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(REGISTRY_ISSUER)
    .setAudience(TICKET_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + TICKET_TTL_S)
    .sign(cert.key);
}

/** The repository a valid pull ticket names, or null. */
export async function verifyPullTicket(cert: SigningCert, ticket: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(ticket, cert.publicKey, { issuer: REGISTRY_ISSUER, audience: TICKET_AUDIENCE });
    return typeof payload.repository === 'string' ? payload.repository : null;
  } catch {
    return null;
  }
}
