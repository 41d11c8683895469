import type { HealthCheck } from '@limelight/widgets/api';
import { joinUrl } from '../runtimes/http/httpRuntime';
import { checkServiceUrl, platformRequestHeaders, type UrlPolicy } from '../runtimes/http/urlPolicy';
import type { SecretBox } from '../crypto/secretBox';
import type { ServiceRow } from './queries';

// The health check of a service's runtime: for a service at its own URL, a GET of its /health
// endpoint (or its base URL when it declares none), with the latency of the answer. A container
// deployment reports what it is: waiting for a runner. Nothing here invents a status.

const TIMEOUT_MS = 5000;

export async function checkHealth(row: ServiceRow, box: SecretBox, policy: UrlPolicy, now = () => new Date()): Promise<HealthCheck> {
  const checked_at = now().toISOString();
  if (row.runtime_type === 'container') {
    return { status: 'waiting_for_runner', latency_ms: null, checked_at, detail: 'The deployment is waiting for a GPU runner' };
  }
  if (row.runtime_type !== 'http' || !row.base_url) {
    return { status: 'ok', latency_ms: null, checked_at, detail: 'Runs on the local demo runtime' };
  }
  const endpoints = (row.endpoints as { method: string; path: string }[]) ?? [];
  const healthPath = endpoints.find((e) => e.method === 'GET' && /^\/?health\/?$/.test(e.path))?.path ?? '';
  const url = healthPath ? joinUrl(row.base_url, healthPath) : new URL(row.base_url);
  const headers = row.headers_sealed ? (JSON.parse(box.open(row.headers_sealed)) as Record<string, string>) : {};
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
