import { RuntimeError } from '../runtime';
import { checkServiceUrl, platformRequestHeaders, type UrlPolicy } from './urlPolicy';

// A GET that follows redirects one hop at a time, each hop through the URL policy (docs/security.md,
// "Service URLs"). fetch's own `redirect: 'follow'` checks nothing: a container answering its
// /openapi.json with `302 Location: http://127.0.0.1:5432/` made the platform call any address
// from the host (issue 35). A hop on the trusted origin (the container's own address, which the
// runner chose) is followed as is; every other hop must pass the policy, own-address rule included.

/** Redirects followed at most, as browsers cap them lower than fetch's 20. */
export const MAX_REDIRECTS = 5;

export interface HopByHopOptions {
  policy: UrlPolicy;
  /** An origin the platform chose itself (a container instance's), not checked against the policy. */
  trustedOrigin?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  maxRedirects?: number;
}

/** The policy's check; a refused redirect names where it pointed. */
async function checkHop(url: URL, hop: number, policy: UrlPolicy): Promise<void> {
  try {
    await checkServiceUrl(url, policy);
  } catch (error) {
    if (hop === 0 || !(error instanceof RuntimeError)) throw error;
    throw new RuntimeError(error.code, `the redirect to ${url.href} is refused: ${error.message}`, { cause: error });
  }
}

export async function fetchHopByHop(start: URL, options: HopByHopOptions): Promise<Response> {
  let url = start;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  for (let hop = 0; ; hop += 1) {
    if (url.origin !== options.trustedOrigin) await checkHop(url, hop, options.policy);
    const response = await fetch(url, {
      headers: { ...options.headers, ...platformRequestHeaders },
      redirect: 'manual',
      signal: options.signal,
    });
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (!location) return response;
    await response.body?.cancel();
    if (hop >= maxRedirects) throw new RuntimeError('invalid_url', `${start.href} redirected more than ${maxRedirects} times`);
    url = new URL(location, url);
  }
}
