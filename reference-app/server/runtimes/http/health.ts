import { CONTAINER_RUNTIME_DEFAULTS } from '@limelight/rules';
import type { HealthCheck } from '@limelight/widgets/api';
import { joinUrl } from './httpRuntime';
import { checkServiceUrl, platformRequestHeaders, type UrlPolicy } from './urlPolicy';

// The health check of a service at its own URL: a GET of the health path the owner set under its
// base URL (by default its OpenAPI document, as for a container: a service that can describe
// itself is up), with the latency of the answer. Before (issue 39) it asked GET / of a service
// without a /health endpoint, which most APIs answer 404. Nothing here invents a status.

const TIMEOUT_MS = 5000;

export interface HttpHealthTarget {
  base_url: string;
  /** Null or absent: the default, the OpenAPI document. */
  health_path?: string | null;
  headers: Record<string, string>;
}

export async function checkHttpHealth(target: HttpHealthTarget, policy: UrlPolicy, now = () => new Date()): Promise<HealthCheck> {
  const checked_at = now().toISOString();
  const { base_url, headers } = target;
  const url = joinUrl(base_url, target.health_path ?? CONTAINER_RUNTIME_DEFAULTS.health_path);
  const started = performance.now();
  try {
    await checkServiceUrl(url, policy);
    const response = await fetch(url, {
      headers: { ...headers, ...platformRequestHeaders },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    const latency_ms = Math.round(performance.now() - started);
    return response.ok
      ? { status: 'ok', latency_ms, checked_at, detail: `GET ${url.pathname} answered ${response.status}` }
      : { status: 'failing', latency_ms, checked_at, detail: `GET ${url.pathname} answered ${response.status}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (cause ?? (error as Error).message);
    return { status: 'unreachable', latency_ms: null, checked_at, detail: `${url.origin} is unreachable (${reason})` };
  }
}
