import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { RuntimeError } from '../runtime';

// Which service URLs the platform will call. A publisher chooses the URL, so without a policy the
// platform could be made to call its own database port, a cloud metadata address or another
// internal host (server-side request forgery). In production only public addresses are allowed;
// in development (the default for `npm start`) private and loopback addresses are allowed too,
// so a service running on the same machine can be published. See docs/security.md.

export interface UrlPolicy {
  allowPrivateAddresses: boolean;
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Refuses URLs the policy does not allow, with a message naming why. */
export async function checkServiceUrl(url: URL, policy: UrlPolicy): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RuntimeError('invalid_url', `Service URLs must use http or https, not ${url.protocol.replace(':', '')}`);
  }
  if (url.username || url.password) throw new RuntimeError('invalid_url', 'Service URLs must not contain credentials; use a secret header');
  if (policy.allowPrivateAddresses) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new RuntimeError('unreachable', `The service host ${host} does not resolve`);
  const refused = addresses.find(isPrivateAddress);
  if (refused)
    throw new RuntimeError(
      'invalid_url',
      `The service host ${host} resolves to a private address (${refused}); only public addresses are allowed`,
    );
}
