import { randomBytes } from 'node:crypto';
import { PRIVATE_SERVICE_LIMITS } from '@limelight/rules';
import type { FieldError, HealthCheck, ManagedService, ServiceEndpoint, ServiceRuntime } from '@limelight/widgets/api';
import { forbidden, invalidFields, notFound, paymentRequired } from '../errors';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { openCredential } from '../profile/registryCredentials';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_HEALTH_PATH,
  DEFAULT_PORT,
  DEFAULT_RESOURCES,
  resourcesOfRow,
  type ServiceResources,
} from '../hosting/contract';
import { credentialRegistryProblem, imageRegistryProblem } from '../registry/allowedRegistries';
import { selectSealedCredential } from '../profile/queries';
import { handleOfUser } from '../registry/handles';
import { foreignNamespaceProblem } from '../registry/scopes';
import type { DeploymentStatus } from '../hosting/fleet';
import type { LoadRunnable, RunnableService, RuntimeRegistry } from '../hosting/runtimeRegistry';
import { claimDisplayName } from './serviceAddress';
import { urlProblem, type UrlPolicy } from '../runtimes/http/urlPolicy';
import { activePlanOf } from '../payments/queries';
import { hostingQuotaProblem } from '../payments/hostingQuotas';
import {
  countPrivateServices,
  lockHostingQuota,
  lockPrivateServices,
  sumContainerInstances,
  credentialOwnedBy,
  deleteRuntime,
  insertService,
  selectEarnings,
  setLastHealth,
  updateServiceColumns,
  upsertRuntime,
  gpuExists,
  ownerName,
  privateServicesBefore,
  selectOwnServiceIds,
  selectRunnableService,
  selectService,
  softDeleteService,
  unknownCategories,
  type ServiceRow,
} from './queries';
import { deleteHosting, setDeploymentStatus, upsertHosting } from '../hosting/queries';
import type { RuntimeInput, RuntimeResourcesInput, ServiceCreate, ServicePatch } from './schemas';
import { sanitizeDescription } from './sanitizeDescription';
import { recordVersion, type VersionKind } from './versionRecords';

// Publishing without HTTP: who may do what to a service, the plan's private-service limit, and
// how a stored row reads back. See docs/publishing.md.

export interface ServicesDeps {
  db: Db;
  box: SecretBox;
  /** The site's origin, for the billing link of the plan-limit message. */
  publicUrl: string;
  /** Deploys and stops container runtimes (hosting/runtimeRegistry.ts). */
  runtimes: RuntimeRegistry;
  /** Base URLs are checked against the platform's own address when saved (private ones when called). */
  urlPolicy?: UrlPolicy;
  /** The registries container images may come from (CONTAINER_REGISTRIES); unset: any. */
  imageRegistries?: readonly string[];
  /** The platform's own registry (host[:port]): a caller's images on it are in their namespace only. */
  platformRegistryHost?: string;
}

/** Where a plan is upgraded (the account's billing page). */
export const billingUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/account/billing`;

/**
 * A deployment's status as the service view shows it (the fleet knows more: hosting/fleet.ts). A create or
 * an update answers `deploying` while the image is pulled and the first instance starts.
 */
function deploymentStatusOf(stored: string | null): 'waiting_for_runner' | 'deploying' | 'running' | 'failed' {
  const status = (stored ?? 'waiting_for_runner') as DeploymentStatus;
  if (status === 'deploying') return 'deploying';
  if (status === 'running' || status === 'scaled_to_zero') return 'running';
  if (status === 'failed' || status === 'stopped') return 'failed';
  return 'waiting_for_runner';
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48) || 'service';

/** A new service's id: readable, URL-safe without encoding, and unguessable enough to be unique. */
export const newServiceId = (name: string) => `${slug(name)}-${randomBytes(3).toString('hex')}`;

/** The wire's `resources` of a container runtime (docs/publishing.md, "Resources"). */
export interface ResourcesView {
  cpu: number;
  memory_mb: number;
  gpu: number;
}

/** An input's resources with the defaults filled in, as stored and deployed. */
export const resourcesOfInput = (resources: RuntimeResourcesInput | undefined): ServiceResources => ({
  cpu: resources?.cpu ?? DEFAULT_RESOURCES.cpu,
  memoryMb: resources?.memory_mb ?? DEFAULT_RESOURCES.memoryMb,
  gpu: gpuCountOf(resources?.gpu),
});

/** `resources.gpu` as a count: a plain count, or {type, count} (count 1 when left out); the type is runtime.gpu. */
function gpuCountOf(gpu: RuntimeResourcesInput['gpu']): number {
  if (gpu === undefined) return DEFAULT_RESOURCES.gpu;
  return typeof gpu === 'number' ? gpu : (gpu.count ?? 1);
}

const resourcesView = (r: ServiceResources): ResourcesView => ({ cpu: r.cpu, memory_mb: r.memoryMb, gpu: r.gpu });

/** The stored runtime configuration, per kind, as the owner's editor reads it. */
function runtimeOf(row: ServiceRow): ServiceRuntime {
  switch (row.runtime_type) {
    case 'http':
      return {
        type: 'http',
        base_url: row.base_url ?? '',
        header_names: (row.header_names as string[]) ?? [],
        health_path: row.health_path ?? DEFAULT_HEALTH_PATH,
      };
    case 'container': {
      const container: ServiceRuntime & { resources: ResourcesView; snapshot: boolean } = {
        type: 'container',
        image: row.image ?? '',
        registry_credential_id: row.registry_credential_id,
        gpu: row.gpu ?? '',
        min_instances: row.min_instances ?? 0,
        max_instances: row.max_instances ?? 1,
        idle_timeout_s: row.idle_timeout_s ?? 300,
        port: row.port ?? DEFAULT_PORT,
        health_path: row.health_path ?? DEFAULT_HEALTH_PATH,
        concurrency: row.concurrency ?? DEFAULT_CONCURRENCY,
        resources: resourcesView(resourcesOfRow(row)),
        snapshot: row.snapshot !== false,
        deployment_status: deploymentStatusOf(row.deployment_status),
      };
      return container;
    }
    default:
      return { type: 'local-demo' };
  }
}

const categoriesOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.map(String)
      : value && typeof value === 'object'
        ? Object.keys(value)
        : [];

export function viewOf(row: ServiceRow, earnings = 0): ManagedService {
  return {
    id: row.id,
    display_name: row.display_name ?? row.id,
    model_desc: row.model_desc,
    display_img_url: row.display_img_url,
    model_category: categoriesOf(row.model_category),
    used_models: (row.used_models as string[] | null) ?? [],
    visibility: row.is_public ? 'public' : 'private',
    status: row.status === 'paused' ? 'paused' : 'active',
    endpoints: (row.endpoints as ServiceEndpoint[]) ?? [],
    runtime: runtimeOf(row),
    health: (row.last_health as HealthCheck | null) ?? null,
    n_usages: Number(row.n_usages),
    earnings_credits: earnings,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * The service if the caller owns it. Someone else's private service does not exist for them
 * (404, like an unknown id); someone else's public service exists but is not theirs to change.
 */
export async function ownedService(db: Db, id: string, userId: string): Promise<ServiceRow> {
  const row = await selectService(db, id).executeTakeFirst();
  if (!row || (row.created_by !== userId && !row.is_public)) throw notFound(`No service ${id}`);
  if (row.created_by !== userId) throw forbidden(`Only the owner can change the service ${id}`);
  return row;
}

/**
 * Refuses one more private service over the plan's limit. Runs inside the transaction that makes
 * the service private, after a per-user lock: two parallel requests (on any number of server
 * processes sharing the database) are counted one after the other, never both under the limit.
 */
async function checkPrivateLimit({ publicUrl }: ServicesDeps, db: Db, userId: string, except?: string) {
  await lockPrivateServices(db, userId);
  const plan = await activePlanOf(db, userId);
  const limit = privateLimitOf(plan);
  const used = await countPrivateServices(db, userId, except);
  if (used + 1 > limit) {
    throw paymentRequired(
      `Your ${plan} plan allows ${allowanceOf(limit)} (you have ${used}). Make the service public, or upgrade your plan at ${billingUrl(publicUrl)}.`,
    );
  }
}

/**
 * Refuses a container runtime whose instances do not fit the owner's plan beside the owner's
 * other container services (payments/hostingQuotas.ts). Runs inside the saving transaction,
 * after a per-user lock, so parallel saves are counted one after the other.
 */
async function checkHostingQuota(
  { publicUrl }: ServicesDeps,
  db: Db,
  userId: string,
  id: string,
  runtime: RuntimeInput | null | undefined,
) {
  if (runtime?.type !== 'container') return;
  await lockHostingQuota(db, userId);
  const plan = await activePlanOf(db, userId);
  const ask = { minInstances: runtime.min_instances, maxInstances: runtime.max_instances };
  const problem = hostingQuotaProblem(plan, ask, await sumContainerInstances(db, userId, id));
  if (problem) throw paymentRequired(`${problem}. Lower them, or upgrade your plan at ${billingUrl(publicUrl)}.`);
}

const privateLimitOf = (plan: string): number => PRIVATE_SERVICE_LIMITS[plan as keyof typeof PRIVATE_SERVICE_LIMITS] ?? 0;
const allowanceOf = (limit: number) => (limit === 0 ? 'no private services' : `${limit} private services`);

/**
 * Why a private service over its owner's plan limit refuses runs, or undefined. Creating one
 * over the limit is refused (checkPrivateLimit), so this happens after a downgrade: the owner's
 * oldest private services (creation time, then id) keep the plan's allowance and the newer ones
 * refuse runs until the owner chooses (makes one public, deletes one or upgrades). Oldest first
 * because it is deterministic, it keeps the services the owner has relied on longest, and it
 * changes only when the owner acts; nothing is changed or deleted automatically
 * (docs/publishing.md, "Rules").
 */
async function overPlanLimit(db: Db, publicUrl: string, service: RunnableService): Promise<string | undefined> {
  if (service.is_public || !service.created_by) return undefined;
  const plan = await activePlanOf(db, service.created_by);
  const limit = privateLimitOf(plan);
  if (limit === Number.POSITIVE_INFINITY) return undefined;
  const before = await privateServicesBefore(db, service.created_by, service.id);
  if (before < limit) return undefined;
  const total = await countPrivateServices(db, service.created_by);
  return (
    `Your ${plan} plan allows ${allowanceOf(limit)} and you have ${total}: ${service.id} is over the limit and does not run ` +
    `until you make one of your private services public, delete one, or upgrade your plan at ${billingUrl(publicUrl)}.`
  );
}

/** The loader the job system receives (hosting/runtimeRegistry.ts): jobs never read these tables. */
export const runnableServiceLoader =
  (db: Db, publicUrl: string): LoadRunnable =>
  async (id) => {
    const service = (await selectRunnableService(db, id)) as RunnableService | undefined;
    if (!service) return undefined;
    return { ...service, over_plan_limit: await overPlanLimit(db, publicUrl, service) };
  };

/**
 * Checks what the schema cannot: referenced categories, GPUs and credentials exist and are the
 * caller's, and a container image is one the platform can pull for this service (docs/publishing.md,
 * "Images the platform refuses"): from an allowed registry, on the platform's registry only in
 * the caller's namespace, with a credential saved for the image's own registry.
 */
async function checkReferences(
  { db, urlPolicy, imageRegistries, platformRegistryHost }: ServicesDeps,
  userId: string,
  input: ServicePatch,
) {
  const errors: FieldError[] = [];
  if (input.runtime?.type === 'http' && urlPolicy?.own) {
    // Only the own-address rule here: whether a host is private is decided when it is called
    // (DNS answers change), and development allows private hosts.
    const problem = await urlProblem(input.runtime.base_url, { allowPrivateAddresses: true, own: urlPolicy.own }, 'runtime.base_url');
    if (problem) errors.push({ name: 'runtime.base_url', rule: 'url', message: problem });
  }
  for (const id of await unknownCategories(db, input.model_category ?? [])) {
    errors.push({ name: `model_category.${input.model_category!.indexOf(id)}`, rule: 'exists', message: `unknown category "${id}"` });
  }
  const runtime = input.runtime;
  if (runtime?.type === 'container') {
    const registryProblem = imageRegistries && imageRegistryProblem(runtime.image, imageRegistries);
    if (registryProblem) errors.push({ name: 'runtime.image', rule: 'registry', message: registryProblem });
    const namespaceProblem =
      !registryProblem &&
      platformRegistryHost &&
      foreignNamespaceProblem(runtime.image, platformRegistryHost, await handleOfUser(db, userId));
    if (namespaceProblem) errors.push({ name: 'runtime.image', rule: 'namespace', message: namespaceProblem });
    if (!(await gpuExists(db, runtime.gpu))) errors.push({ name: 'runtime.gpu', rule: 'exists', message: `unknown GPU "${runtime.gpu}"` });
    if (runtime.registry_credential_id && !(await credentialOwnedBy(db, runtime.registry_credential_id, userId))) {
      errors.push({ name: 'runtime.registry_credential_id', rule: 'exists', message: 'is not one of your registry credentials' });
    } else if (runtime.registry_credential_id && !registryProblem) {
      const credential = await selectSealedCredential(db, runtime.registry_credential_id);
      const problem = credential && credentialRegistryProblem(runtime.image, credential.registry);
      if (problem) errors.push({ name: 'runtime.registry_credential_id', rule: 'registry', message: problem });
    }
  }
  if (errors.length) throw invalidFields(errors);
}

function runtimeValues(runtime: RuntimeInput, box: SecretBox, keepSealedHeaders: { sealed: string | null; names: string[] } | undefined) {
  if (runtime.type === 'http') {
    const headers = runtime.headers;
    return {
      type: 'http' as const,
      base_url: runtime.base_url,
      headers_sealed: headers
        ? Object.keys(headers).length
          ? box.seal(JSON.stringify(headers))
          : null
        : (keepSealedHeaders?.sealed ?? null),
      header_names: JSON.stringify(headers ? Object.keys(headers) : (keepSealedHeaders?.names ?? [])),
      image: null,
      registry_credential_id: null,
      gpu: null,
      min_instances: null,
      max_instances: null,
      idle_timeout_s: null,
      port: null,
      health_path: runtime.health_path ?? DEFAULT_HEALTH_PATH,
      concurrency: null,
      cpu: null,
      memory_mb: null,
      gpu_count: null,
      snapshot: null,
      last_health: null,
    };
  }
  const resources = resourcesOfInput(runtime.resources);
  return {
    type: 'container' as const,
    base_url: null,
    headers_sealed: null,
    header_names: '[]',
    image: runtime.image,
    registry_credential_id: runtime.registry_credential_id ?? null,
    gpu: runtime.gpu,
    min_instances: runtime.min_instances,
    max_instances: runtime.max_instances,
    idle_timeout_s: runtime.idle_timeout_s,
    port: runtime.port ?? DEFAULT_PORT,
    health_path: runtime.health_path ?? DEFAULT_HEALTH_PATH,
    concurrency: runtime.concurrency ?? DEFAULT_CONCURRENCY,
    cpu: resources.cpu,
    memory_mb: resources.memoryMb,
    gpu_count: resources.gpu,
    snapshot: runtime.snapshot ?? true,
    last_health: null,
  };
}

/** Who saves a runtime, and how: a container image saved is recorded as a version (versionRecords.ts). */
interface Saver {
  userId: string;
  kind: VersionKind;
}

async function saveRuntime(deps: ServicesDeps, id: string, runtime: RuntimeInput | null | undefined, saver: Saver, existing?: ServiceRow) {
  if (runtime === undefined) return;
  const { db, box } = deps;
  if (runtime === null) {
    await deleteRuntime(db, id);
    await deleteHosting(db, id);
    return;
  }
  const keep =
    existing?.runtime_type === 'http' && runtime.type === 'http' && existing.base_url === runtime.base_url
      ? { sealed: existing.headers_sealed, names: (existing.header_names as string[]) ?? [] }
      : undefined;
  const values = runtimeValues(runtime, box, keep);
  // A save that leaves the address, the health path and the headers as they were keeps the last
  // health check, which the hosting list shows (a description edit is no reason to forget it).
  const sameTarget = keep !== undefined && runtime.type === 'http' && !runtime.headers && existing?.health_path === values.health_path;
  const lastHealth = sameTarget && existing.last_health != null ? JSON.stringify(existing.last_health) : null;
  await upsertRuntime(db, id, { ...values, last_health: lastHealth });
  if (runtime.type === 'container') {
    // Before the rollout is written: migration 021's trigger copies it onto the new version.
    await recordVersion(db, id, runtime.image, saver.userId, saver.kind);
    // The deployment as model_hosting_information reports it: waiting until the fleet's report
    // (syncDeployment, after the commit) says otherwise (docs/publishing.md).
    // The saved image's rollout is pending until the runner reports on it ("Rollouts").
    await upsertHosting(
      db,
      id,
      { status: 'waiting_for_runner', gpu: runtime.gpu, min_instances: runtime.min_instances, max_instances: runtime.max_instances },
      runtime.image,
    );
  } else {
    await deleteHosting(db, id);
  }
}

/**
 * After the row is committed, tells the fleet: a saved container runtime is deployed (and its
 * reported status stored), a container runtime replaced or removed is stopped.
 */
async function syncDeployment(deps: ServicesDeps, id: string, runtime: RuntimeInput | null | undefined, existing?: ServiceRow) {
  if (runtime === undefined) return;
  if (runtime?.type === 'container') {
    const registryAuth = runtime.registry_credential_id
      ? await openCredential(deps.db, deps.box, runtime.registry_credential_id)
      : undefined;
    const report = await deps.runtimes.deploy({
      serviceId: id,
      image: runtime.image,
      ...(registryAuth ? { registryAuth } : {}),
      gpu: runtime.gpu,
      minInstances: runtime.min_instances,
      maxInstances: runtime.max_instances,
      idleTimeoutS: runtime.idle_timeout_s,
      port: runtime.port,
      healthPath: runtime.health_path,
      concurrency: runtime.concurrency,
      resources: resourcesOfInput(runtime.resources),
      // Told only when off: absent is the default (true), as the runner's revision reads it.
      ...(runtime.snapshot === false ? { snapshot: false } : {}),
    });
    await setDeploymentStatus(deps.db, id, report.status);
  } else if (existing && deps.runtimes.kindOf(existing) === 'container') {
    await deps.runtimes.stop(id);
  }
}

const jsonColumns = (input: ServicePatch) => ({
  ...(input.display_name !== undefined ? { display_name: input.display_name } : {}),
  ...(input.model_desc !== undefined ? { model_desc: input.model_desc === null ? null : sanitizeDescription(input.model_desc) } : {}),
  ...(input.model_category !== undefined ? { model_category: JSON.stringify(input.model_category) } : {}),
  ...(input.used_models !== undefined ? { used_models: JSON.stringify(input.used_models) } : {}),
  ...(input.visibility !== undefined ? { is_public: input.visibility === 'public' } : {}),
  ...(input.status !== undefined ? { status: input.status } : {}),
  ...(input.endpoints !== undefined ? { endpoints: JSON.stringify(input.endpoints) } : {}),
});

export async function getService(deps: ServicesDeps, id: string, userId: string): Promise<ManagedService> {
  return viewOf(await ownedService(deps.db, id, userId), await selectEarnings(deps.db, id, userId));
}

export async function listOwnServices(deps: ServicesDeps, userId: string): Promise<ManagedService[]> {
  const ids = await selectOwnServiceIds(deps.db, userId);
  return Promise.all(ids.map(({ id }) => getService(deps, id, userId)));
}

export async function createService(deps: ServicesDeps, userId: string, input: ServiceCreate): Promise<ManagedService> {
  const { db } = deps;
  await checkReferences(deps, userId, input);
  const visibility = input.visibility ?? 'private';
  const id = newServiceId(input.display_name);
  await db.transaction().execute(async (trx) => {
    await claimDisplayName(trx, userId, input.display_name);
    if (visibility === 'private') await checkPrivateLimit(deps, trx, userId);
    await checkHostingQuota(deps, trx, userId, id, input.runtime);
    await insertService(trx, {
      id,
      display_name: input.display_name,
      model_desc: null,
      display_img_url: null,
      used_models: '[]',
      model_category: '[]',
      endpoints: '[]',
      created_by: userId,
      owner_name: await ownerName(trx, userId),
      provider: 'limelight',
      is_public: visibility === 'public',
      ...jsonColumns({ ...input, visibility }),
    });
    await saveRuntime({ ...deps, db: trx }, id, input.runtime, { userId, kind: 'deploy' });
  });
  await syncDeployment(deps, id, input.runtime);
  return getService(deps, id, userId);
}

/** Changes the owner's service; `kind` says whether a container image saved is a deploy or a rollback (versions.ts). */
export async function updateService(
  deps: ServicesDeps,
  id: string,
  userId: string,
  input: ServicePatch,
  kind: VersionKind = 'deploy',
): Promise<ManagedService> {
  const { db } = deps;
  const existing = await ownedService(db, id, userId);
  await checkReferences(deps, userId, input);
  await db.transaction().execute(async (trx) => {
    if (input.display_name !== undefined) await claimDisplayName(trx, userId, input.display_name, id);
    if (input.visibility === 'private' && existing.is_public) await checkPrivateLimit(deps, trx, userId, id);
    await checkHostingQuota(deps, trx, userId, id, input.runtime);
    const columns = jsonColumns(input);
    if (Object.keys(columns).length) await updateServiceColumns(trx, id, columns);
    await saveRuntime({ ...deps, db: trx }, id, input.runtime, { userId, kind }, existing);
  });
  await syncDeployment(deps, id, input.runtime, existing);
  return getService(deps, id, userId);
}

export async function deleteService(deps: ServicesDeps, id: string, userId: string) {
  const row = await ownedService(deps.db, id, userId);
  await softDeleteService(deps.db, id);
  if (deps.runtimes.kindOf(row) === 'container') await deps.runtimes.stop(id);
}

export async function setServiceImage(deps: ServicesDeps, id: string, userId: string, url: string) {
  await ownedService(deps.db, id, userId);
  await updateServiceColumns(deps.db, id, { display_img_url: url });
  return getService(deps, id, userId);
}

export async function recordHealth(deps: ServicesDeps, id: string, health: HealthCheck) {
  await setLastHealth(deps.db, id, health);
}
