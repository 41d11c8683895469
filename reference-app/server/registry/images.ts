import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/types';
import { conflict, notFound, unavailable } from '../errors';
import { selectContainerImagesOf } from './queries';
import { repositoryIn } from './scopes';

// A publisher's images in the platform's registry (docs/publishing.md, "Your images"): listed
// from the registry's storage directory (the same tree quota.ts counts), deleted through the
// registry's own API (a manifest DELETE by digest, with a token the platform issues itself), or,
// for a tag that another tag still names, by removing the tag's directory, which is all
// Distribution's own untag does (its 2.8 API answers a DELETE by tag with 400). Deleting never
// frees bytes by itself: the garbage collection that follows (garbageCollect.ts) does.

/** What images.ts needs of the running registry (platformRegistry.ts). */
export interface RegistryBackend {
  host: string;
  storageDir: string;
  /** host:port where docker-registry itself answers (loopback). */
  addr: string;
  /** PLATFORM_REGISTRY_QUOTA_MB: caps every plan's storage quota. */
  quotaCapMb: number | undefined;
  /** A bearer token for the registry's API granting `actions` on `repository`. */
  tokenFor(repository: string, actions: string[]): Promise<string>;
}

export interface ServiceRef {
  id: string;
  name: string;
}

export interface StoredImage {
  digest: string;
  tags: string[];
  /** The manifest, its config and its layers, as the manifest declares them (compressed). */
  size_bytes: number;
  pushed_at: string;
  /** The caller's container services whose saved image is this one (by digest, or by a tag naming it). */
  used_by: ServiceRef[];
}

export interface StoredRepository {
  /** The name under the namespace: `<host>/<namespace>/<name>`. */
  name: string;
  images: StoredImage[];
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** Distribution's tag grammar. */
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
/** A repository name under a namespace (Distribution's path components, lower case). */
const NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;

export const isDigest = (reference: string) => DIGEST.test(reference);

const v2 = (storageDir: string) => path.join(storageDir, 'docker', 'registry', 'v2');
export const repositoriesDir = (storageDir: string, namespace: string) => path.join(v2(storageDir), 'repositories', namespace);
const blobPath = (storageDir: string, digest: string) => {
  const hex = digest.slice('sha256:'.length);
  return path.join(v2(storageDir), 'blobs', 'sha256', hex.slice(0, 2), hex, 'data');
};

async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

async function readLink(file: string): Promise<string | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  const digest = text?.trim();
  return digest && DIGEST.test(digest) ? digest : null;
}

/** The names of the namespace's repositories (directories with a `_manifests`), nested ones as `a/b`. */
export async function repositoryNames(storageDir: string, namespace: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const name of await entries(dir)) {
      if (name.startsWith('_')) {
        if (name === '_manifests' && prefix) found.push(prefix);
        continue;
      }
      await walk(path.join(dir, name), prefix ? `${prefix}/${name}` : name);
    }
  };
  await walk(repositoriesDir(storageDir, namespace), '');
  return found;
}

interface Revision {
  digest: string;
  pushedAt: Date;
}

/** The manifests a repository holds (their revision links), and its tags with the digest each names. */
export async function repositoryContents(
  storageDir: string,
  repository: string,
): Promise<{ revisions: Revision[]; tags: Map<string, string> }> {
  const manifests = path.join(v2(storageDir), 'repositories', repository, '_manifests');
  const revisions: Revision[] = [];
  for (const hex of await entries(path.join(manifests, 'revisions', 'sha256'))) {
    // A deleted manifest leaves its directory behind without the link.
    const link = path.join(manifests, 'revisions', 'sha256', hex, 'link');
    const [digest, info] = await Promise.all([readLink(link), stat(link).catch(() => null)]);
    if (digest && info) revisions.push({ digest, pushedAt: info.mtime });
  }
  const tags = new Map<string, string>();
  for (const tag of await entries(path.join(manifests, 'tags'))) {
    const digest = await readLink(path.join(manifests, 'tags', tag, 'current', 'link'));
    if (digest) tags.set(tag, digest);
  }
  return { revisions, tags };
}

interface Descriptor {
  digest?: unknown;
  size?: unknown;
}

/** The blobs a stored manifest refers to (config and layers; an index's manifests), and its own size. */
export async function manifestReferences(
  storageDir: string,
  digest: string,
): Promise<{ size: number; blobs: Descriptor[]; children: string[] }> {
  const text = await readFile(blobPath(storageDir, digest), 'utf8').catch(() => null);
  if (text === null) return { size: 0, blobs: [], children: [] };
  let manifest: { config?: Descriptor; layers?: Descriptor[]; manifests?: Descriptor[]; fsLayers?: { blobSum?: unknown }[] };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return { size: Buffer.byteLength(text), blobs: [], children: [] };
  }
  const blobs = [...(manifest.config ? [manifest.config] : []), ...(manifest.layers ?? [])];
  // Schema 1 manifests name their layers without sizes.
  for (const layer of manifest.fsLayers ?? []) blobs.push({ digest: layer.blobSum });
  const children = (manifest.manifests ?? []).map((m) => m.digest).filter((d): d is string => typeof d === 'string' && DIGEST.test(d));
  return { size: Buffer.byteLength(text), blobs, children };
}

const sizeOf = (blobs: Descriptor[]) => blobs.reduce((sum, b) => sum + (typeof b.size === 'number' && b.size > 0 ? b.size : 0), 0);

/**
 * The caller's container services whose saved image is in the namespace, each with the
 * repository and the reference (tag or digest) it names.
 */
async function servicesOnRegistry(db: Db, host: string, userId: string) {
  const rows = await selectContainerImagesOf(db, userId);
  const out: { service: ServiceRef; repository: string; reference: string }[] = [];
  for (const row of rows) {
    const image = row.image ?? '';
    const repository = repositoryIn(image, host);
    if (!repository) continue;
    const rest = image.slice(host.length + 1 + repository.length);
    const reference = rest.startsWith('@') ? rest.slice(1) : rest.startsWith(':') ? rest.slice(1) : 'latest';
    out.push({ service: { id: row.id, name: row.display_name ?? row.id }, repository, reference });
  }
  return out;
}

/** The namespace's repositories and their images, newest first, with the services each is saved in. */
export async function listImages(db: Db, backend: RegistryBackend, userId: string, namespace: string): Promise<StoredRepository[]> {
  const services = await servicesOnRegistry(db, backend.host, userId);
  const repositories: StoredRepository[] = [];
  for (const name of await repositoryNames(backend.storageDir, namespace)) {
    const repository = `${namespace}/${name}`;
    const { revisions, tags } = await repositoryContents(backend.storageDir, repository);
    const images: StoredImage[] = [];
    for (const revision of revisions) {
      const { size, blobs, children } = await manifestReferences(backend.storageDir, revision.digest);
      let total = size + sizeOf(blobs);
      for (const child of children) {
        const inner = await manifestReferences(backend.storageDir, child);
        total += inner.size + sizeOf(inner.blobs);
      }
      const named = [...tags].filter(([, digest]) => digest === revision.digest).map(([tag]) => tag);
      const used_by = services
        .filter((s) => s.repository === repository && (s.reference === revision.digest || named.includes(s.reference)))
        .map((s) => s.service);
      images.push({ digest: revision.digest, tags: named, size_bytes: total, pushed_at: revision.pushedAt.toISOString(), used_by });
    }
    if (images.length === 0) continue;
    images.sort((a, b) => b.pushed_at.localeCompare(a.pushed_at) || a.digest.localeCompare(b.digest));
    repositories.push({ name, images });
  }
  return repositories;
}

/** Checks a repository name and reference from a request: a name under the namespace, a tag or a digest. */
export function checkImageName(name: string, reference?: string): string | undefined {
  if (!NAME.test(name) || name.length > 200) {
    return `"${name}" is not an image name: lower-case letters, digits and . _ - separated parts, as in my-service (the part after your namespace)`;
  }
  if (reference !== undefined && !TAG.test(reference) && !DIGEST.test(reference)) {
    return `"${reference}" is neither a tag (letters, digits, . _ -, up to 128) nor a digest (sha256: and 64 hex digits)`;
  }
  return undefined;
}

/** What a delete did: the digests whose manifests went and the tags that went. */
export interface DeleteResult {
  deleted_digests: string[];
  untagged: string[];
  /** Whether the whole repository went (its directory is removed at the next collection). */
  repository_deleted: boolean;
}

async function deleteManifest(backend: RegistryBackend, repository: string, digest: string): Promise<void> {
  const token = await backend.tokenFor(repository, ['delete']);
  const answer = await fetch(`http://${backend.addr}/v2/${repository}/manifests/${digest}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  }).catch((error: Error) => {
    throw unavailable(`The platform's registry did not answer (${error.message}); try again in a minute`);
  });
  await answer.body?.cancel();
  // 404: already gone (two deletes at once); 405: the registry is read-only while it collects garbage.
  if (answer.status === 405) throw unavailable('The registry is collecting garbage and read-only for a few seconds; try again');
  if (!answer.ok && answer.status !== 404) throw unavailable(`The platform's registry refused the delete (${answer.status})`);
}

const inUse = (what: string, services: ServiceRef[]) =>
  conflict(
    `${what} is the image of your service${services.length > 1 ? 's' : ''} ${services.map((s) => `"${s.name}"`).join(', ')}: ` +
      'point the service at another image (or delete the service) first, then delete it',
  );

/**
 * Deletes `name` (the whole repository), `name:tag` or `name@digest` from the caller's
 * namespace. An image one of the caller's services is saved with is refused (409, naming the
 * services); a tag whose image another tag still names only loses the tag. NotFound when there is
 * no such repository, tag or digest.
 */
export async function deleteImage(
  db: Db,
  backend: RegistryBackend,
  userId: string,
  namespace: string,
  name: string,
  reference?: string,
): Promise<DeleteResult> {
  const repository = `${namespace}/${name}`;
  const { revisions, tags } = await repositoryContents(backend.storageDir, repository);
  if (revisions.length === 0 && tags.size === 0) throw notFound(`You have no image named ${name}`);
  const services = (await servicesOnRegistry(db, backend.host, userId)).filter((s) => s.repository === repository);
  /** The services saved with `digest`, by that digest or by a tag that names it now. */
  const usedBy = (digest: string) =>
    services.filter((s) => s.reference === digest || tags.get(s.reference) === digest).map((s) => s.service);

  if (reference === undefined) {
    const used = services.filter((s) => tags.has(s.reference) || revisions.some((r) => r.digest === s.reference)).map((s) => s.service);
    if (used.length > 0) throw inUse(name, [...new Map(used.map((s) => [s.id, s])).values()]);
    for (const revision of revisions) await deleteManifest(backend, repository, revision.digest);
    return { deleted_digests: revisions.map((r) => r.digest), untagged: [...tags.keys()], repository_deleted: true };
  }

  if (isDigest(reference)) {
    if (!revisions.some((r) => r.digest === reference)) throw notFound(`${name} has no image ${reference}`);
    const used = usedBy(reference);
    if (used.length > 0) throw inUse(`${name}@${reference.slice(0, 19)}…`, used);
    await deleteManifest(backend, repository, reference);
    const untagged = [...tags].filter(([, d]) => d === reference).map(([t]) => t);
    return { deleted_digests: [reference], untagged, repository_deleted: false };
  }

  const digest = tags.get(reference);
  if (!digest) throw notFound(`${name} has no tag ${reference}`);
  // A service saved with this tag pulls it at its next deploy: the tag stays while one is.
  const byTag = services.filter((s) => s.reference === reference).map((s) => s.service);
  if (byTag.length > 0) throw inUse(`${name}:${reference}`, byTag);
  const others = [...tags].filter(([t, d]) => d === digest && t !== reference);
  if (others.length > 0) {
    // The image stays under its other tags: only this tag goes (Distribution's untag: its directory).
    await rm(path.join(v2(backend.storageDir), 'repositories', repository, '_manifests', 'tags', reference), {
      recursive: true,
      force: true,
    });
    return { deleted_digests: [], untagged: [reference], repository_deleted: false };
  }
  const used = usedBy(digest);
  if (used.length > 0) throw inUse(`${name}:${reference}`, used);
  await deleteManifest(backend, repository, digest);
  return { deleted_digests: [digest], untagged: [reference], repository_deleted: false };
}
