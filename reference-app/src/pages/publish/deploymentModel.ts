import type { DeploymentLogLine, HealthCheck, HostingInformation, PricingServer } from '@limelight/widgets/api';
import { formatPricePerSecond } from '@limelight/widgets/pricing';

// What the owner reads about a container deployment (docs/publishing.md, "Lifecycle"), as pure
// functions shared by the editor's container section and /account/hosting: the status in words,
// instances, the last cold start, queue and run times, the GPU offer in one line.

/** model_hosting_information: status, instances, timings, message and the deployment's last log lines. */
export type DeploymentReport = HostingInformation;

export const DEPLOYMENT_STATUS_TEXT: Record<HostingInformation['status'], string> = {
  waiting_for_runner: 'Waiting for a runner',
  deploying: 'Deploying',
  running: 'Running',
  scaled_to_zero: 'Scaled to zero',
  failed: 'Failed',
  stopped: 'Stopped',
};

/** The owner's health check's verdicts, as the editor and the hosting list both say them. */
export const HEALTH_TEXT: Record<HealthCheck['status'], string> = {
  ok: 'Healthy',
  failing: 'Failing',
  unreachable: 'Unreachable',
  waiting_for_runner: 'Waiting for a runner',
};

/**
 * The runtime line of a service at its own URL in the hosting list: the last "Check health"
 * verdict the editor showed (the one stored on the service), so the two agree (issue 39).
 */
export function ownUrlHealthText(health: HealthCheck | null): string {
  return health ? `Own URL · ${HEALTH_TEXT[health.status].toLowerCase()}` : 'Own URL · not checked yet';
}

/** Statuses that change on their own: the pages ask again while one is shown. */
export function isSettled(status: HostingInformation['status']): boolean {
  return status === 'waiting_for_runner' || status === 'stopped';
}

/** A duration for people: `850 ms`, `1.2 s`, `3 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Status and instances in one phrase: `Running · 1 of up to 2 instances`. */
export function describeDeployment(info: DeploymentReport): string {
  const parts = [DEPLOYMENT_STATUS_TEXT[info.status]];
  if (info.status === 'running' || info.status === 'deploying')
    parts.push(`${info.instances} of up to ${info.max_instances} instance${info.max_instances === 1 ? '' : 's'}`);
  if (info.status === 'scaled_to_zero') parts.push('no instance running; the next run starts one (a cold start)');
  return parts.join(' · ');
}

/** The timings a report carries, labelled; those the runner has not measured yet are left out. */
export function deploymentTimings(info: DeploymentReport): Array<{ label: string; value: string }> {
  const rows: Array<[string, number | null | undefined]> = [
    ['Last cold start', info.last_cold_start_ms],
    ['Last queue time', info.last_queue_ms],
    ['Last run time', info.last_run_ms],
  ];
  return rows.filter((r): r is [string, number] => typeof r[1] === 'number').map(([label, ms]) => ({ label, value: formatDuration(ms) }));
}

/**
 * A failure in two parts: the reason in words and the last log lines the runner appended to its
 * message ("<reason>. Last log lines:\n<line>\n…"). Null unless the deployment failed.
 */
export function failureOf(info: DeploymentReport): { reason: string; lines: string[] } | null {
  if (info.status !== 'failed') return null;
  const message = info.message?.trim();
  if (!message) return { reason: 'The deployment failed; the runner gave no reason.', lines: [] };
  const [reason, tail = ''] = message.split(/\s*Last log lines:\s*\n/i);
  return { reason: reason!.trim(), lines: tail.split('\n').filter((line) => line.trim() !== '') };
}

/**
 * The lines the log view shows: the deployment's log when the server sends it (owners only),
 * else the last lines a failure's message carries.
 */
export function logLinesOf(info: DeploymentReport): DeploymentLogLine[] {
  if (info.logs) return info.logs;
  return (failureOf(info)?.lines ?? []).map((text) => ({ at: info.updated_at, stream: 'runner' as const, instance: '', text }));
}

/** `RTX A4000 16 GB` → `RTX A4000`: the VRAM has a column of its own. */
function gpuName(server: PricingServer): string {
  const name = server.display_name.replace(/\s+\d+\s*GB$/i, '').trim() || server.display_name;
  return server.physical_gpus > 1 ? `${server.physical_gpus}× ${name}` : name;
}

/** One GPU offer in one line: GPU, VRAM, provider, price per second. */
export function gpuOfferLabel(server: PricingServer): string {
  return `${gpuName(server)} · ${server.gpu_vram_gb} GB VRAM · ${server.provider} · ${formatPricePerSecond(server.customer_price_per_s_usd)}/s`;
}

/**
 * The offers once each: the server deduplicates, but an older server lists the same GPU and
 * provider at several prices; the cheapest is kept (the one a publisher would pick).
 */
export function distinctGpuOffers(servers: readonly PricingServer[]): PricingServer[] {
  const best = new Map<string, PricingServer>();
  for (const s of servers) {
    const key = `${gpuName(s)}|${s.gpu_vram_gb}|${s.provider}`;
    const seen = best.get(key);
    if (!seen || s.customer_price_per_s_usd < seen.customer_price_per_s_usd) best.set(key, s);
  }
  return servers.filter((s) => best.get(`${gpuName(s)}|${s.gpu_vram_gb}|${s.provider}`) === s);
}
