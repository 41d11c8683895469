import { ConfigError } from '../config';

// The platform's own container registry (docs/publishing.md, "The platform's registry"): on with
// container hosting unless PLATFORM_REGISTRY=off. Debian's docker-registry listens on loopback
// beside the server; publishers push to it with their API key, the runner pulls with a ticket.

export interface PlatformRegistryConfig {
  /** PLATFORM_REGISTRY_ADDR: where docker-registry listens, default 127.0.0.1:5000 (loopback only). */
  addr: string;
  /** PLATFORM_REGISTRY_HOST: the host[:port] publishers push to (a TLS proxy's name); default addr. */
  host: string;
  /** PLATFORM_REGISTRY_QUOTA_MB: caps every plan's storage quota (small hosts, tests). */
  quotaCapMb: number | undefined;
}

type Env = Record<string, string | undefined>;

export function loadPlatformRegistryConfig(env: Env, hostingOn: boolean): PlatformRegistryConfig | null {
  const switch_ = env.PLATFORM_REGISTRY?.trim() || 'on';
  if (switch_ !== 'on' && switch_ !== 'off') throw new ConfigError(`PLATFORM_REGISTRY must be on or off, got "${switch_}"`);
  if (switch_ === 'off' || !hostingOn) return null;
  const addr = env.PLATFORM_REGISTRY_ADDR?.trim() || '127.0.0.1:5000';
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+$/.test(addr))
    throw new ConfigError(`PLATFORM_REGISTRY_ADDR must be a loopback host:port (the registry is not exposed directly), got "${addr}"`);
  const host = env.PLATFORM_REGISTRY_HOST?.trim() || addr;
  const quota = env.PLATFORM_REGISTRY_QUOTA_MB?.trim();
  const quotaCapMb = quota ? Number(quota) : undefined;
  if (quotaCapMb !== undefined && (!Number.isInteger(quotaCapMb) || quotaCapMb < 1))
    throw new ConfigError(`PLATFORM_REGISTRY_QUOTA_MB must be a whole number of megabytes ≥ 1, got "${quota}"`);
  return { addr, host, quotaCapMb };
}
