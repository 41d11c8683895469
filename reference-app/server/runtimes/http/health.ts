import type { HealthCheck } from '@limelight/widgets/api';
import { joinUrl } from './httpRuntime';
import { checkServiceUrl, type UrlPolicy } from './urlPolicy';

// The health check of a service at its own URL: a GET of its /health endpoint (or its base URL
// when it declares none), with the latency of the answer. Nothing here invents a status.

const TIMEOUT_MS = 5000;

export interface HttpHealthTarget {
  base_url: string;
  endpoints: { method: string; path: string }[];
  headers: Record<string, string>;
}

export async function checkHttpHealth(target: HttpHealthTarget, policy: UrlPolicy, now = () => new Date()): Promise<HealthCheck> {
  const checked_at = now().toISOString();
  const { base_url, endpoints, headers } = target;
  const healthPath = endpoints.find((e) => e.method === 'GET' && /^\/?health\/?$/.test(e.path))?.path ?? '';
  const url = healthPath ? joinUrl(base_url, healthPath) : new URL(base_url);
  const started = performance.now();
  try {
    await checkServiceUrl(url, policy);
    const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
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
