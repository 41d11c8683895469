import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { RuntimeError } from '../runtime';

// Which URLs the platform will call: a service's base URL and its follow-up status and cancel
// URLs, an imported OpenAPI document, a health check, a job webhook. A publisher or a caller
// chooses the URL, so without a policy the platform could be made to call its own database port,
// a cloud metadata address, another internal host (server-side request forgery) or itself (the
// dev mailbox answers the platform's own requests as if they came from the machine's owner). In
// production only public addresses are allowed; in development (the default for `npm start`)
// private and loopback addresses are allowed too, so a service running on the same machine can be
// published. The platform's own origins are refused in every mode. See docs/security.md,
// "Service URLs".

export { PLATFORM_REQUEST_HEADER, platformRequestHeaders } from '../../http/platformRequest';

export interface UrlPolicy {
  allowPrivateAddresses: boolean;
  /** The platform itself: refused in every mode. */
  own?: OwnAddress;
}

/** Where the platform answers: its public origin(s) and the port(s) it and its engine listen on. */
export interface OwnAddress {
  origins: readonly string[];
  port?: number;
  /** The container engine's TCP API (DOCKER_HOST=tcp://…): a URL naming it would drive the engine. */
  engine?: { origin: string; port: number };
}

/**
 * The platform's own address from its public URL and, when it differs, the port it listens on;
 * with the runner's DOCKER_HOST when that is a TCP address, which is refused the same way.
 */
export function ownAddressOf(publicUrl: string, listenPort?: number, dockerHost?: string): OwnAddress {
  const url = new URL(publicUrl);
  const own: OwnAddress = { origins: [url.origin], port: listenPort || effectivePort(url) };
  const engine = /^(tcp|https?):\/\//.test(dockerHost ?? '') ? new URL(dockerHost!.replace(/^tcp:/, 'http:')) : undefined;
  return engine ? { ...own, engine: { origin: engine.origin, port: effectivePort(engine) } } : own;
}

/** The one public range ipaddr.js names; everything else is special-purpose (RFC 6890 and successors). */
const PUBLIC_RANGE = 'unicast';

/** The IPv4 address an IPv6 address carries and is delivered to, when it carries one. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const fromWords = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (SIIT)
      return fromWords(parts[6]!, parts[7]!);
    case 'rfc6052': // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
      return fromWords(parts[6]!, parts[7]!);
    case '6to4': // 2002:aabb:ccdd::/48
      return fromWords(parts[1]!, parts[2]!);
    default:
      return undefined;
  }
}

/** True for every address that is not plainly public; unparseable text counts as private. */
export function isPrivateAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return true;
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return address.range() !== PUBLIC_RANGE;
  const v6 = address as ipaddr.IPv6;
  // 64:ff9b:1::/48 (local-use NAT64) and ::/96 (deprecated IPv4-compatible) carry an IPv4 address
  // in forms a translator may honour: refused outright.
  if (v6.match(ipaddr.parseCIDR('64:ff9b:1::/48')) || v6.match(ipaddr.parseCIDR('::/96'))) return true;
  const inner = embeddedIPv4(v6);
  if (inner) return inner.range() !== PUBLIC_RANGE;
  return v6.range() !== PUBLIC_RANGE;
}

/** Addresses that reach this machine: loopback, "any", and the addresses of its own interfaces. */
const isThisMachine = (text: string): boolean => {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.process(text); // unwraps ::ffff:a.b.c.d
  if (address.range() === 'loopback' || address.range() === 'unspecified') return true;
  const normal = address.toNormalizedString();
  return Object.values(networkInterfaces()).some((list) => list?.some((i) => ipaddr.process(i.address).toNormalizedString() === normal));
};

function effectivePort(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}
/** Why the URL is the platform itself, or undefined when it is not. */
function ownAddressProblem(url: URL, addresses: readonly string[], own: OwnAddress | undefined): string | undefined {
  if (!own) return undefined;
  if (own.origins.includes(url.origin)) return `${url.origin} is this platform's own address`;
  if (own.port !== undefined && effectivePort(url) === own.port && addresses.some(isThisMachine)) {
    return `${url.host} is this platform's own address`;
  }
  if (own.engine && (url.origin === own.engine.origin || (effectivePort(url) === own.engine.port && addresses.some(isThisMachine)))) {
    return `${url.host} is the container engine's address`;
  }
  return undefined;
}

async function resolve(host: string): Promise<string[]> {
  if (ipaddr.isValid(host)) return [host];
  return (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
}

/** Refuses URLs the policy does not allow, with a message naming why. */
export async function checkServiceUrl(url: URL, policy: UrlPolicy, what = 'Service URLs'): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RuntimeError('invalid_url', `${what} must use http or https, not ${url.protocol.replace(':', '')}`);
  }
  if (url.username || url.password) throw new RuntimeError('invalid_url', `${what} must not contain credentials; use a secret header`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Development calls private addresses without resolving them, except on the platform's own port.
  const onOwnPort = [policy.own?.port, policy.own?.engine?.port].includes(effectivePort(url));
  const addresses = !policy.allowPrivateAddresses || onOwnPort ? await resolve(host) : [];
  const own = ownAddressProblem(url, addresses, policy.own);
  if (own) throw new RuntimeError('invalid_url', `${own}; the platform does not call itself or its container engine`);
  if (policy.allowPrivateAddresses) return;
  if (addresses.length === 0) throw new RuntimeError('unreachable', `The host ${host} does not resolve`);
  const refused = addresses.find(isPrivateAddress);
  if (refused)
    throw new RuntimeError('invalid_url', `The host ${host} resolves to a private address (${refused}); only public addresses are allowed`);
}

/** Why a URL given as text is refused, or undefined when the policy allows it. */
export async function urlProblem(value: string, policy: UrlPolicy, what: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${what} must be an absolute http(s) URL`;
  }
  try {
    await checkServiceUrl(url, policy, what);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
