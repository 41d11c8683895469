import { int, matching, oneOf, optionalInt, text, type Env } from '../config/env';

// The platform's own container registry (docs/publishing.md, "The platform's registry"): on with
// container hosting unless PLATFORM_REGISTRY=off. The server's own proxy listens on loopback and
// counts what is written (registry/proxy.ts); Debian's docker-registry behind it listens on a unix
// socket only the proxy uses. Publishers push with their API key, the runner pulls with a ticket.

export interface PlatformRegistryConfig {
  /** PLATFORM_REGISTRY_ADDR: where the registry (its proxy) listens, default 127.0.0.1:5000 (loopback only). */
  addr: string;
  /** PLATFORM_REGISTRY_HOST: the host[:port] publishers push to (a TLS proxy's name); default addr. */
  host: string;
  /** PLATFORM_REGISTRY_QUOTA_MB: caps every plan's storage quota (small hosts, tests). */
  quotaCapMb: number | undefined;
  /** PLATFORM_REGISTRY_IMAGE_MB: caps every plan's unpacked image size checked at push (small hosts, tests). */
  imageCapMb: number | undefined;
  /** PLATFORM_REGISTRY_UPLOAD_IDLE_S: an unfinished upload untouched this long is purged (default 1800). */
  uploadIdleS: number;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+$/;

export function loadPlatformRegistryConfig(env: Env, hostingOn: boolean): PlatformRegistryConfig | null {
  if (oneOf(env, 'PLATFORM_REGISTRY', ['on', 'off'], 'on') === 'off' || !hostingOn) return null;
  const addr =
    matching(env, 'PLATFORM_REGISTRY_ADDR', LOOPBACK, 'a loopback host:port (the registry is not exposed directly)') ?? '127.0.0.1:5000';
  const host = text(env, 'PLATFORM_REGISTRY_HOST') ?? addr;
  const quotaCapMb = optionalInt(env, 'PLATFORM_REGISTRY_QUOTA_MB', { min: 1, unit: 'megabytes' });
  const imageCapMb = optionalInt(env, 'PLATFORM_REGISTRY_IMAGE_MB', { min: 1, unit: 'megabytes' });
  const uploadIdleS = int(env, 'PLATFORM_REGISTRY_UPLOAD_IDLE_S', 1_800, { min: 1, max: 86_400, unit: 'seconds' });
  return { addr, host, quotaCapMb, imageCapMb, uploadIdleS };
}
