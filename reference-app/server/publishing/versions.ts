import { DomainError, invalid, notFound } from '../errors';
import { repositoryContents } from '../registry/images';
import { repositoryIn } from '../registry/scopes';
import { resourcesOfRow } from '../hosting/contract';
import { ownedService, type ServicesDeps } from './publishedServices';
import { selectVersionLandmarks, selectVersions, type ServiceRow } from './queries';
import type { RuntimeInput } from './schemas';
import { digestOf, type VersionKind } from './versionRecords';

// A container service's versions and its rollback (docs/publishing.md, "Versions and rollback").
// A version is recorded by every save of a container runtime whose image differs from the newest
// version's (versionRecords.ts); its outcome follows the rollout the runner stores
// (migration 021's trigger). A rollback saves the service's runtime again with an earlier
// version's image: the same path, checks and rolling update as `limelight push --deploy`.

/** The rollout's states (hosting/fleet.ts), and `superseded`: a newer version was saved before this one's rollout ended. */
export type VersionOutcome = 'pending' | 'in_progress' | 'succeeded' | 'failed' | 'superseded';

export interface VersionView {
  id: string;
  image: string;
  /** `sha256:…` when the image is named by digest (what `limelight push` saves); null for a tag. */
  digest: string | null;
  kind: VersionKind;
  deployed_at: string;
  deployed_by: { id: string; email: string | null } | null;
  outcome: VersionOutcome;
  outcome_message: string | null;
  /** The version that serves now: the newest whose rollout succeeded (a failed or unfinished one leaves it serving). */
  current: boolean;
}

/** A digest's first 12 hex digits, as the CLI and the account page show it. */
export const shortDigest = (digest: string) => digest.replace(/^sha256:/, '').slice(0, 12);

type VersionRow = Awaited<ReturnType<typeof selectVersions>>[number];

function viewOf(row: VersionRow, marks: { newest: string | null; current: string | null }): VersionView {
  const id = String(row.id);
  const unfinished = row.outcome === 'pending' || row.outcome === 'in_progress';
  return {
    id,
    image: row.image,
    digest: row.digest,
    kind: row.kind as VersionKind,
    deployed_at: new Date(row.deployed_at).toISOString(),
    deployed_by: row.deployed_by ? { id: row.deployed_by, email: row.email } : null,
    outcome: unfinished && id !== marks.newest ? 'superseded' : (row.outcome as VersionOutcome),
    outcome_message: row.outcome_message,
    current: id === marks.current,
  };
}

// A cursor names the last version of a page; the next page continues below its id.
const encodeCursor = (id: string) => Buffer.from(`v:${id}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const match = /^v:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) {
    throw new DomainError('invalid', 'cursor: not a cursor this API returned', [
      { name: 'cursor', rule: 'cursor', message: 'cursor is not valid' },
    ]);
  }
  return match[1]!;
}

/** One page of the owner's service's versions, newest first (GET …/services/{id}/versions). */
export async function listVersions(
  deps: ServicesDeps,
  serviceId: string,
  userId: string,
  page: { limit: number; cursor?: string },
): Promise<{ versions: VersionView[]; next_cursor: string | null }> {
  await ownedService(deps.db, serviceId, userId);
  const rows = await selectVersions(deps.db, serviceId, {
    limit: page.limit + 1,
    ...(page.cursor ? { before: decodeCursor(page.cursor) } : {}),
  });
  const marks = await selectVersionLandmarks(deps.db, serviceId);
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return {
    versions: shown.map((row) => viewOf(row, marks)),
    next_cursor: rows.length > page.limit && last ? encodeCursor(String(last.id)) : null,
  };
}

/** The version `digest` names (whole, or its first hex digits when only one digest starts so). */
function versionByDigest(rows: VersionRow[], serviceId: string, digest: string): VersionRow {
  const prefix = digest
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, '');
  if (!/^[0-9a-f]{4,64}$/.test(prefix)) {
    throw invalid(`digest: "${digest}" is not a digest: give sha256: and 64 hex digits, or the first 4 or more of them`);
  }
  const matching = rows.filter((row) => row.digest?.slice('sha256:'.length).startsWith(prefix));
  const digests = [...new Set(matching.map((row) => row.digest!))];
  if (digests.length === 0) {
    throw notFound(`No version of the service ${serviceId} has the digest ${digest}; \`limelight versions\` lists them`);
  }
  if (digests.length > 1) {
    throw invalid(
      `digest: ${digest} is the start of ${digests.length} versions' digests (${digests.map(shortDigest).join(', ')}); give more of it`,
    );
  }
  return matching[0]!;
}

/**
 * The version a rollback goes to: the one `digest` names, else the newest one that served before
 * the one serving now (with another image). Refuses what would change nothing.
 */
function rollbackTarget(rows: VersionRow[], serviceId: string, savedImage: string | null, digest?: string): VersionRow {
  const current = rows.find((row) => row.outcome === 'succeeded');
  if (digest !== undefined) {
    const target = versionByDigest(rows, serviceId, digest);
    // The saved image already: unless its rollout failed (then this is a retry), nothing to do.
    const newest = rows[0];
    if (target.image === savedImage && newest?.image === savedImage && newest.outcome !== 'failed') {
      throw invalid(`digest: ${shortDigest(target.digest!)} is already the service's deployed version`);
    }
    return target;
  }
  const earlier =
    current && rows.find((row) => Number(row.id) < Number(current.id) && row.outcome === 'succeeded' && row.image !== current.image);
  if (!earlier) {
    throw invalid(
      `The service ${serviceId} has no earlier version that served to roll back to` +
        (rows.length > 1 ? '; name one by its digest (`limelight versions` lists them)' : ''),
    );
  }
  return earlier;
}

/** Where the platform's registry keeps its images (registry/platformRegistry.ts), to see that a version's image is still there. */
export interface RegistryStore {
  host: string;
  storageDir: string;
}

/**
 * Refuses an image of the platform's registry that was deleted since (`limelight images rm`,
 * registry/images.ts): the runner could not pull it, and the rollout would fail with a pull error.
 * Images elsewhere are the publisher's registry's to keep; their rollout reports a failed pull.
 */
async function checkStillStored(image: string, registry: RegistryStore | undefined): Promise<void> {
  const digest = digestOf(image);
  const repository = registry && repositoryIn(image, registry.host);
  if (!registry || !repository || !digest) return;
  const { revisions } = await repositoryContents(registry.storageDir, repository);
  if (!revisions.some((revision) => revision.digest === digest)) {
    throw invalid(
      `The image ${repository}@${shortDigest(digest)}… is no longer in the platform's registry (it was deleted): ` +
        'push it again and deploy, or roll back to another version',
    );
  }
}

/** The service's saved container runtime with another image, as a PATCH would send it. */
function runtimeWithImage(row: ServiceRow, image: string): RuntimeInput {
  const resources = resourcesOfRow(row);
  return {
    type: 'container',
    image,
    registry_credential_id: row.registry_credential_id,
    gpu: row.gpu ?? '',
    min_instances: row.min_instances ?? 0,
    max_instances: row.max_instances ?? 1,
    idle_timeout_s: row.idle_timeout_s ?? 300,
    ...(row.port !== null ? { port: row.port } : {}),
    ...(row.health_path !== null ? { health_path: row.health_path } : {}),
    ...(row.concurrency !== null ? { concurrency: row.concurrency } : {}),
    resources: { cpu: resources.cpu, memory_mb: resources.memoryMb, gpu: resources.gpu },
    // A service that opted out of snapshots stays out after a rollback (null: the default, true).
    ...(row.snapshot === false ? { snapshot: false } : {}),
  };
}

/**
 * Redeploys an earlier version of the owner's container service (POST …/services/{id}/rollback):
 * `save` is the service update (publishedServices.ts, updateService), so the rollback meets the
 * same refusals (registry, namespace, credential, quota) and rolls out as a push does. Answers
 * the version recorded for it, whose outcome follows the rollout.
 */
export async function rollback(
  deps: ServicesDeps & { registry?: RegistryStore },
  serviceId: string,
  userId: string,
  digest: string | undefined,
  save: (runtime: RuntimeInput) => Promise<unknown>,
): Promise<VersionView> {
  const row = await ownedService(deps.db, serviceId, userId);
  if (row.runtime_type !== 'container') {
    throw invalid(`The service ${serviceId} does not run a container image: only container services have versions to roll back to`);
  }
  const rows = await selectVersions(deps.db, serviceId);
  const target = rollbackTarget(rows, serviceId, row.image, digest);
  await checkStillStored(target.image, deps.registry);
  await save(runtimeWithImage(row, target.image));
  const newest = await selectVersions(deps.db, serviceId, { limit: 1 });
  return viewOf(newest[0]!, await selectVersionLandmarks(deps.db, serviceId));
}
