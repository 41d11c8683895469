import type { UrlPolicy } from '../runtimes/http/urlPolicy';
import { fetchHopByHop } from '../runtimes/http/hopByHop';
import { readLimited } from '../runtimes/http/readLimited';
import { RuntimeError } from '../runtimes/runtime';
import { invalid } from '../errors';

// Where an imported OpenAPI document comes from: a pasted document, a URL, or the service's own
// `/openapi.json` (FastAPI's default). Fetching follows the same URL policy as runs, at every
// redirect hop (runtimes/http/hopByHop.ts).

const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

/**
 * `trustedOrigin`: a container instance's own address, which the runner chose (its hops are not
 * checked against the policy, which in production refuses private addresses such as its own).
 */
export async function fetchOpenApiDocument(url: URL, policy: UrlPolicy, trustedOrigin?: string): Promise<unknown> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetchHopByHop(url, { policy, trustedOrigin, headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    if (error instanceof RuntimeError) throw invalid(`url: ${error.message}`);
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw invalid(`url: ${url.href} could not be fetched (${cause})`);
  }
  if (!response.ok) throw invalid(`url: ${url.href} answered ${response.status}`);
  const bytes = await readLimited(response, MAX_DOCUMENT_BYTES, signal).catch((error: unknown) => {
    throw invalid(`url: ${(error as Error).message}`);
  });
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    throw invalid(`url: ${url.href} did not answer JSON (YAML documents: paste them converted to JSON)`);
  }
}
