import { spawn } from 'node:child_process';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { log } from '../log';
import { manifestReferences, repositoryContents } from './images';
import { REGISTRY_BINARY } from './supervisor';

// Frees the bytes of deleted images (docs/publishing.md, "Your images"). A manifest DELETE only
// unlinks the manifest; Distribution's `docker-registry garbage-collect` then removes the blobs no
// manifest refers to. It must not run while a push is in flight (it would remove the layers of a
// push whose manifest is not written yet), so it runs while the registry serves read-only (pushes
// answered 405, pulls served), a few seconds after the last delete, and not while a push looks
// under way. Before it, in the same window, the repositories the deletes touched lose their links
// to blobs no remaining manifest of theirs names and the directories of deleted manifests
// (Distribution 2.8 leaves both, and quota.ts counts what a namespace links: a layer another
// account still uses would stay counted for the one who deleted it), and a deleted repository's
// directory goes.

/** After the last delete, how long to wait for more before collecting. */
export const GC_DEBOUNCE_MS = 5_000;
/** At least this long between two collections' ends and starts: deletes in a row make one. */
export const GC_MIN_INTERVAL_MS = 60_000;
/** An upload written to, or a layer linked and not in a manifest yet, this recently: a push is under way. */
export const PUSH_QUIET_MS = 15_000;
/** A collection waits for pushes at most this long after it was due, then runs anyway. */
export const GC_MAX_WAIT_MS = 5 * 60_000;
/** The collection itself is stopped after this long (the registry serves read-write again). */
export const GC_TIMEOUT_MS = 10 * 60_000;

export interface CollectionReport {
  at: string;
  /** How long `docker-registry garbage-collect` took. */
  gc_ms: number;
  /** How long pushes were refused: read-only restart, pruning, collection and read-write restart. */
  read_only_ms: number;
  /** Blobs the collection removed. */
  blobs_deleted: number;
  /** Repositories whose unused links were pruned. */
  repositories: number;
}

/** Runs `work` with the registry read-only, handed its config file (supervisor.ts). */
export type ReadOnlyWindow = <T>(work: (config: string) => Promise<T>) => Promise<T>;

export interface GarbageCollectorOptions {
  storageDir: string;
  whileReadOnly: ReadOnlyWindow;
  debounceMs?: number;
  minIntervalMs?: number;
  quietMs?: number;
  maxWaitMs?: number;
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

const mtimeMs = (file: string) =>
  stat(file).then(
    (s) => s.mtimeMs,
    () => 0,
  );
const repositoriesRoot = (storageDir: string) => path.join(storageDir, 'docker', 'registry', 'v2', 'repositories');

/** Every repository in the registry (`ns/name`, nested ones too). */
async function allRepositories(storageDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const name of await entries(dir)) {
      if (name.startsWith('_')) {
        if (name === '_manifests' && prefix.includes('/')) found.push(prefix);
        continue;
      }
      await walk(path.join(dir, name), prefix ? `${prefix}/${name}` : name);
    }
  };
  await walk(repositoriesRoot(storageDir), '');
  return found;
}

/** The blob digests the repository's remaining manifests name (their configs and layers). */
async function referencedBlobs(storageDir: string, repository: string): Promise<Set<string>> {
  const referenced = new Set<string>();
  const { revisions } = await repositoryContents(storageDir, repository);
  for (const { digest } of revisions) {
    const { blobs, children } = await manifestReferences(storageDir, digest);
    for (const child of children) blobs.push(...(await manifestReferences(storageDir, child)).blobs);
    for (const blob of blobs) if (typeof blob.digest === 'string') referenced.add(blob.digest);
  }
  return referenced;
}

/**
 * Whether a push looks under way anywhere: an upload written to within `quietMs`, or a layer
 * linked within `quietMs` that no manifest of its repository names yet.
 */
export async function pushInFlight(storageDir: string, quietMs: number): Promise<boolean> {
  const since = Date.now() - quietMs;
  for (const repository of await allRepositories(storageDir)) {
    const dir = path.join(repositoriesRoot(storageDir), repository);
    for (const upload of await entries(path.join(dir, '_uploads'))) {
      if ((await mtimeMs(path.join(dir, '_uploads', upload, 'data'))) > since) return true;
    }
    let referenced: Set<string> | undefined;
    for (const hex of await entries(path.join(dir, '_layers', 'sha256'))) {
      if ((await mtimeMs(path.join(dir, '_layers', 'sha256', hex, 'link'))) <= since) continue;
      referenced ??= await referencedBlobs(storageDir, repository);
      if (!referenced.has(`sha256:${hex}`)) return true;
    }
  }
  return false;
}

/**
 * Drops the repository's links to blobs none of its manifests names; a repository left with no
 * manifest, tag or upload loses its directory (nested repositories under it stay).
 */
export async function pruneRepository(storageDir: string, repository: string): Promise<void> {
  const dir = path.join(repositoriesRoot(storageDir), repository);
  const { revisions, tags } = await repositoryContents(storageDir, repository);
  if (revisions.length === 0 && tags.size === 0 && (await entries(path.join(dir, '_uploads'))).length === 0) {
    for (const name of ['_layers', '_manifests', '_uploads']) await rm(path.join(dir, name), { recursive: true, force: true });
    // Up to the namespace: directories left empty go (rmdir refuses a directory that is not).
    for (let at = dir, depth = repository.split('/').length; depth > 1; depth--, at = path.dirname(at)) {
      if (
        !(await rmdir(at).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
    return;
  }
  const referenced = await referencedBlobs(storageDir, repository);
  for (const hex of await entries(path.join(dir, '_layers', 'sha256'))) {
    if (!referenced.has(`sha256:${hex}`)) await rm(path.join(dir, '_layers', 'sha256', hex), { recursive: true, force: true });
  }
  // A deleted manifest leaves its revision's directory without the link; quota.ts counts the directory.
  const revisionDir = path.join(dir, '_manifests', 'revisions', 'sha256');
  for (const hex of await entries(revisionDir)) {
    if ((await mtimeMs(path.join(revisionDir, hex, 'link'))) === 0) await rm(path.join(revisionDir, hex), { recursive: true, force: true });
  }
}

/** Runs Distribution's collector on `config`; answers the number of blobs it removed. */
export function runGarbageCollect(config: string, timeoutMs = GC_TIMEOUT_MS): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(REGISTRY_BINARY, ['garbage-collect', config], { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let out = '';
    child.stdout.on('data', (d) => (out = (out + d).slice(-20_000)));
    child.stderr.on('data', (d) => (out = (out + d).slice(-20_000)));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(Number(/(\d+) blobs and \d+ manifests eligible for deletion/.exec(out)?.[1] ?? 0));
      reject(
        new Error(
          `docker-registry garbage-collect ${signal ? `was stopped (${signal})` : `exited ${code}`}: ${out.trim().split('\n').at(-1) ?? ''}`,
        ),
      );
    });
  });
}

/**
 * Collects garbage after deletes: `schedule()` after each, one collection a few seconds after the
 * last (GC_DEBOUNCE_MS), at most one a minute, postponed while a push looks under way (up to
 * GC_MAX_WAIT_MS). `close()` cancels a pending one and waits for a running one.
 */
export class GarbageCollector {
  private readonly touched = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private dueSince: number | null = null;
  private lastEnd = 0;
  private closed = false;
  last: CollectionReport | null = null;

  constructor(private readonly options: GarbageCollectorOptions) {}

  /** Whether a collection is waiting or running. */
  get pending(): boolean {
    return this.timer !== null || this.running !== null;
  }

  /** A delete touched `repository` (`ns/name`): collect soon. */
  schedule(repository: string): void {
    if (this.closed) return;
    this.touched.add(repository);
    this.dueSince ??= Date.now();
    const debounce = this.options.debounceMs ?? GC_DEBOUNCE_MS;
    const interval = this.options.minIntervalMs ?? GC_MIN_INTERVAL_MS;
    this.arm(Math.max(debounce, this.lastEnd + interval - Date.now()));
  }

  private arm(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) return this.arm(1_000);
      this.running = this.collect().finally(() => (this.running = null));
    }, delayMs);
    this.timer.unref();
  }

  private async collect(): Promise<void> {
    const quiet = this.options.quietMs ?? PUSH_QUIET_MS;
    const waited = Date.now() - (this.dueSince ?? Date.now());
    if (waited < (this.options.maxWaitMs ?? GC_MAX_WAIT_MS) && (await pushInFlight(this.options.storageDir, quiet))) {
      return this.arm(quiet / 3);
    }
    const repositories = [...this.touched];
    this.touched.clear();
    this.dueSince = null;
    const started = Date.now();
    try {
      let gcMs = 0;
      const blobs = await this.options.whileReadOnly(async (config) => {
        for (const repository of repositories) await pruneRepository(this.options.storageDir, repository);
        const gcStarted = Date.now();
        const removed = await runGarbageCollect(config);
        gcMs = Date.now() - gcStarted;
        return removed;
      });
      this.last = {
        at: new Date().toISOString(),
        gc_ms: gcMs,
        read_only_ms: Date.now() - started,
        blobs_deleted: blobs,
        repositories: repositories.length,
      };
      log.info(
        this.last,
        `registry garbage collection: ${blobs} blobs removed in ${gcMs} ms, pushes refused for ${this.last.read_only_ms} ms`,
      );
    } catch (error) {
      // Tried again at the next delete; what was deleted stays deleted, its bytes wait.
      for (const repository of repositories) this.touched.add(repository);
      log.warn(`registry garbage collection failed (${(error as Error).message}); it runs again after the next delete`);
    } finally {
      this.lastEnd = Date.now();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
