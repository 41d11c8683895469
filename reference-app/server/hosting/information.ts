import type { z } from '@hono/zod-openapi';
import { invalid, notFound } from '../errors';
import type { CoreConfig } from '../config/core';
import type { Db } from '../db/types';
import { selectDeploymentLogsSince, selectDeploymentLogTail, selectHosting, selectLastJobTimes } from './queries';
import type { RolloutStatus } from './fleet';
import {
  HOSTING_LOG_LINES,
  ROLLOUT_LOG_LINES,
  type HostingInformationSchema,
  type HostingQuerySchema,
  type RolloutProgressSchema,
  type RolloutQuerySchema,
} from './schemas';

// Hosting state of a service. Someone else's private service answers like a missing one.

type HostingInformation = z.output<typeof HostingInformationSchema>;

type LogLine = NonNullable<HostingInformation['logs']>[number];

/**
 * What only the owner sees: the deployment's last log lines and its newest job's times, read from
 * the database (the runner managing the deployment may be another process: docs/deploy.md).
 */
async function ownerExtras(db: Db, serviceId: string): Promise<Pick<HostingInformation, 'logs' | 'last_queue_ms' | 'last_run_ms'>> {
  const [lines, times] = await Promise.all([selectDeploymentLogTail(db, serviceId, HOSTING_LOG_LINES), selectLastJobTimes(db, serviceId)]);
  return {
    logs: lines.map((l) => ({
      at: new Date(l.at).toISOString(),
      stream: l.stream as LogLine['stream'],
      instance: l.instance,
      text: l.line,
    })),
    last_queue_ms: times?.queue_ms ?? null,
    last_run_ms: times?.run_ms ?? null,
  };
}

export async function hostingInformation(
  db: Db,
  config: Pick<CoreConfig, 'brandName' | 'publicUrl'>,
  userId: string,
  query: z.output<typeof HostingQuerySchema>,
): Promise<HostingInformation> {
  if (!query.hosted_model_id && !query.model_id) throw invalid('hosted_model_id or model_id: give one of them');
  // hosted_model_id wins when both are given.
  const by = query.hosted_model_id ? 'hosted_model_id' : 'model_id';
  const value = (query.hosted_model_id ?? query.model_id)!;
  const row = await selectHosting(db, by, value);
  if (!row || (!row.is_public && row.created_by !== userId)) throw notFound(`No model service with ${by} ${value}`);
  if (!row.hosted_model_id) throw notFound(`Model ${row.model_id} is not hosted on ${config.brandName} (provider ${row.provider})`);
  const isOwner = row.created_by === userId;
  const owner = isOwner ? await ownerExtras(db, row.model_id) : {};
  // The image is the owner's runtime setting, and a failure's reason theirs to read (docs/publishing.md, "Rollouts").
  const rollout = isOwner
    ? {
        rollout:
          row.rollout_image && row.rollout_status
            ? { image: row.rollout_image, status: row.rollout_status as RolloutStatus, message: row.rollout_message ?? '' }
            : null,
      }
    : {};
  return {
    ...owner,
    ...rollout,
    hosted_model_id: row.hosted_model_id,
    model_id: row.model_id,
    status: row.status as HostingInformation['status'],
    gpu: row.gpu!,
    min_instances: row.min_instances!,
    max_instances: row.max_instances!,
    instances: row.instances ?? 0,
    last_cold_start_ms: row.last_cold_start_ms ?? null,
    snapshot:
      row.snapshot_bytes !== null && row.snapshot_taken_at
        ? {
            size_mb: Math.round((Number(row.snapshot_bytes) / 2 ** 20) * 10) / 10,
            taken_at: row.snapshot_taken_at.toISOString(),
            age_s: Math.max(0, Math.round((Date.now() - row.snapshot_taken_at.getTime()) / 1000)),
          }
        : null,
    // The runner's message quotes the container's last log lines: the owner's to read only.
    message: isOwner ? (row.message ?? null) : null,
    // Runs of every service go through the job API (docs/jobs.md).
    endpoint_url: `${config.publicUrl}/v1/jobs`,
    updated_at: row.updated_at!.toISOString(),
  };
}

type RolloutProgress = z.output<typeof RolloutProgressSchema>;

/**
 * What `limelight deploy` follows while it waits (docs/publishing.md, "Rollouts"): the deployment's
 * state and rollout, and its log lines (the runner's pull, start and health words, the app's own
 * output) written after `since`, at most ROLLOUT_LOG_LINES per answer. The owner's only: the lines
 * quote the container, so anyone else is answered as if the service did not exist.
 */
export async function rolloutProgress(
  db: Db,
  config: Pick<CoreConfig, 'brandName'>,
  userId: string,
  serviceId: string,
  query: z.output<typeof RolloutQuerySchema>,
): Promise<RolloutProgress> {
  const row = await selectHosting(db, 'model_id', serviceId);
  if (!row || row.created_by !== userId) throw notFound(`No model service with id ${serviceId}`);
  if (!row.hosted_model_id) throw notFound(`Model ${row.model_id} is not hosted on ${config.brandName} (provider ${row.provider})`);
  const found =
    query.since === undefined
      ? await selectDeploymentLogTail(db, serviceId, ROLLOUT_LOG_LINES)
      : await selectDeploymentLogsSince(db, serviceId, query.since, ROLLOUT_LOG_LINES + 1);
  const more = found.length > ROLLOUT_LOG_LINES;
  const lines = found.slice(0, ROLLOUT_LOG_LINES);
  return {
    status: row.status as RolloutProgress['status'],
    message: row.message ?? null,
    instances: row.instances ?? 0,
    rollout:
      row.rollout_image && row.rollout_status
        ? { image: row.rollout_image, status: row.rollout_status as RolloutStatus, message: row.rollout_message ?? '' }
        : null,
    lines: lines.map((l) => ({
      at: new Date(l.at).toISOString(),
      stream: l.stream as LogLine['stream'],
      instance: l.instance,
      text: l.line,
    })),
    cursor: String(lines.at(-1)?.id ?? query.since ?? '0'),
    more,
  };
}
