import { checkServiceUrl, type UrlPolicy } from '../runtimes/http/urlPolicy';
import { readLimited } from '../runtimes/http/readLimited';
import { invalid } from '../errors';

// Where an imported OpenAPI document comes from: a pasted document, a URL, or the service's own
// `/openapi.json` (FastAPI's default). Fetching follows the same URL policy as runs.

const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

export async function fetchOpenApiDocument(url: URL, policy: UrlPolicy): Promise<unknown> {
  try {
    await checkServiceUrl(url, policy);
  } catch (error) {
    throw invalid(`url: ${(error as Error).message}`);
  }
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, redirect: 'manual', signal });
  } catch (error) {
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
