import { createHash } from 'node:crypto';
import { UnpackedCounter } from '../registry/unpacked';
import { registryHostOf, registryOf } from '../registry/allowedRegistries';
import { EngineError, type RegistryAuth } from './engine';

// An image's unpacked size checked before the engine pulls it (issue 47; docs/publishing.md,
// "Image size"; docs/security.md, "Container hosting"). The engine writes every byte a layer
// unpacks to onto the host's disk before anyone can ask how large the image is, so a few MB of
// compressed zeros became gigabytes there. The platform's own registry counts at push
// (registry/unpacked.ts); an image on any other registry is read here first, with the credential
// the pull would use: its manifest (compressed sizes over the cap: refused at once), then each
// layer once through the same counter, stopped as soon as the total passes the plan's cap. The
// engine then pulls the very manifest that was counted, by digest, so a registry cannot show the
// platform one image and the engine another. Nothing unpacked is kept.

const MiB = 1024 * 1024;
/** The one wording of an image over the plan's cap, before the pull (`atLeast`) and after it (deployment.ts). */
export const imageTooLargeMessage = (mb: number, capMb: number, atLeast = false) =>
  `The image is ${atLeast ? 'more than ' : ''}${mb} MB unpacked; this plan allows ${capMb} MB`;

/** A manifest larger than this is not an image's (the engine's own limit is 4 MB). */
const MAX_MANIFEST_BYTES = 4 * MiB;
/** A token answer larger than this is not a token. */
const MAX_TOKEN_BYTES = 1 * MiB;
const MAX_REDIRECTS = 5;
/** Manifest digests whose image was counted whole and within a cap, with what it unpacks to. */
const MAX_REMEMBERED = 1000;

const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
];

export interface Descriptor {
  mediaType?: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

/** An image reference split as the engine reads it (`nginx:1` is docker.io/library/nginx:1). */
export interface ImageReference {
  /** host[:port] as registry/allowedRegistries.ts names it (docker.io for Docker Hub). */
  registry: string;
  repository: string;
  /** A tag or a digest (sha256:…). */
  reference: string;
  /** The reference without its tag or digest, as written (the engine's pull keeps the name). */
  name: string;
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REPOSITORY = new RegExp(`^${COMPONENT}(?:/${COMPONENT})*$`);
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

export function parseImageReference(image: string): ImageReference {
  const at = image.indexOf('@');
  let name = at >= 0 ? image.slice(0, at) : image;
  let reference = at >= 0 ? image.slice(at + 1) : 'latest';
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) {
    if (at < 0) reference = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  const registry = registryOf(name);
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  // registryOf's rule: a first component with a dot or a port, or `localhost`, is the host.
  let repository = first && (/[.:]/.test(first) || first.toLowerCase() === 'localhost') ? name.slice(slash + 1) : name;
  if (registry === 'docker.io' && !repository.includes('/')) repository = `library/${repository}`;
  const ok = at >= 0 ? DIGEST.test(reference) : TAG.test(reference);
  if (!REPOSITORY.test(repository) || !ok) {
    throw new EngineError('pull', `${image} is not an image reference (registry/name:tag or registry/name@sha256:…)`);
  }
  return { registry, repository, reference, name };
}

/** The engine's rule (deploy/podman/registries.conf): loopback registries over plain HTTP, every other over TLS. */
export function registryBaseUrl(registry: string): string {
  if (registry === 'docker.io') return 'https://registry-1.docker.io';
  const host = registry.replace(/:\d+$/, '');
  const loopback = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  return `${loopback ? 'http' : 'https'}://${registry}`;
}

/** A WWW-Authenticate challenge: its scheme and parameters (realm, service, scope). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses `Bearer realm="https://…",service="…",scope="…"` (or `Basic realm="…"`); null when unreadable. */
export function parseChallenge(header: string | null): Challenge | null {
  const match = header?.trim().match(/^([A-Za-z]+)(?:\s+(.*))?$/s);
  if (!match) return null;
  const params: Record<string, string> = {};
  const pattern = /([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*(?:,|$)/g;
  for (const m of (match[2] ?? '').matchAll(pattern))
    params[m[1]!.toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!;
  return { scheme: match[1]!.toLowerCase(), params };
}

/** The host's platform as image indexes name it (the engine picks the same). */
export function hostPlatform(arch: string = process.arch): { os: string; architecture: string } {
  const names: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x' };
  return { os: 'linux', architecture: names[arch] ?? arch };
}

/** The index entry the engine would pull: the host's platform, else linux/amd64; null when neither. */
export function pickManifest(entries: Descriptor[], platform = hostPlatform()): Descriptor | null {
  const of = (architecture: string) => entries.find((e) => e.platform?.os === 'linux' && e.platform.architecture === architecture);
  return of(platform.architecture) ?? of('amd64') ?? null;
}

/** What an image manifest says: its layers and config, or an index to choose from. */
export function parseManifest(
  bytes: Buffer,
): { kind: 'index'; manifests: Descriptor[] } | { kind: 'image'; config: Descriptor; layers: Descriptor[] } {
  let json: { mediaType?: string; schemaVersion?: number; manifests?: unknown; layers?: unknown; config?: unknown };
  try {
    json = JSON.parse(bytes.toString('utf8')) as typeof json;
  } catch {
    throw new EngineError('pull', 'The registry answered with a manifest that is not JSON');
  }
  const isDescriptor = (d: unknown): d is Descriptor =>
    typeof d === 'object' &&
    d !== null &&
    typeof (d as Descriptor).digest === 'string' &&
    Number.isSafeInteger((d as Descriptor).size) &&
    (d as Descriptor).size >= 0;
  if (Array.isArray(json.manifests)) {
    if (!json.manifests.every(isDescriptor)) throw new EngineError('pull', 'The image index lists a manifest without a digest or size');
    return { kind: 'index', manifests: json.manifests };
  }
  if (json.schemaVersion === 2 && Array.isArray(json.layers) && isDescriptor(json.config)) {
    if (!json.layers.every(isDescriptor)) throw new EngineError('pull', 'The image manifest lists a layer without a digest or size');
    return { kind: 'image', config: json.config, layers: json.layers };
  }
  throw new EngineError('pull', 'The image manifest is of a kind this platform does not run (schema 2 Docker or OCI images only)');
}

export interface PullCheckOptions {
  /** The platform's own registry (host[:port]): counted at push, not again here. */
  platformRegistryHost?: string;
  /** Tests: the fetch used (a counting one). */
  fetch?: typeof fetch;
  platform?: { os: string; architecture: string };
}

/** The verdict on one image: the reference the engine is to pull (by digest) and what it unpacks to. */
export interface PullChecked {
  /** `name@sha256:…` of the manifest counted; the image as given when it was not checked. */
  pull: string;
  unpackedBytes?: number;
  /** Bytes downloaded for the check (0: remembered from an earlier one). */
  downloadedBytes: number;
}

export class PullCheck {
  private readonly remembered = new Map<string, number>();
  private readonly fetch: typeof fetch;

  constructor(private readonly options: PullCheckOptions = {}) {
    this.fetch = options.fetch ?? fetch;
  }

  /**
   * Reads the image's manifest and counts what its layers unpack to, up to just past `capMb`,
   * within `timeoutMs` (the pull's own timeout): throws an EngineError with the size message when
   * it is over, or when the registry's answers are not an image's. The bytes read are bounded by
   * the cap itself (compressed sizes over it are refused before any layer is read) and each blob
   * by the size its manifest declares.
   */
  async check(image: string, auth: RegistryAuth | undefined, capMb: number, timeoutMs = 600_000): Promise<PullChecked> {
    const ref = parseImageReference(image);
    if (this.options.platformRegistryHost && ref.registry === registryHostOf(this.options.platformRegistryHost)) {
      return { pull: image, downloadedBytes: 0 };
    }
    const abort = new AbortController();
    const deadline = setTimeout(() => abort.abort(), timeoutMs);
    const session = new RegistrySession(this.fetch, ref, auth, abort.signal);
    try {
      return await this.count(ref, session, capMb);
    } catch (error) {
      if (abort.signal.aborted) {
        throw new EngineError(
          'pull',
          `Checking the size of ${image} before its pull did not finish within ${Math.round(timeoutMs / 1000)} s`,
        );
      }
      if (error instanceof EngineError) throw error;
      throw new EngineError('pull', `Checking the size of ${image} before its pull failed: the registry did not answer`, { cause: error });
    } finally {
      clearTimeout(deadline);
      abort.abort();
    }
  }

  private async count(ref: ImageReference, session: RegistrySession, capMb: number): Promise<PullChecked> {
    const cap = capMb * MiB;
    let { bytes, digest } = await session.manifest(ref.reference);
    let manifest = parseManifest(bytes);
    if (manifest.kind === 'index') {
      const chosen = pickManifest(manifest.manifests, this.options.platform);
      const platform = this.options.platform ?? hostPlatform();
      if (!chosen) throw new EngineError('pull', `The image has no linux/${platform.architecture} or linux/amd64 variant`);
      if (!DIGEST.test(chosen.digest)) throw new EngineError('pull', 'The image index names its manifest without a sha256 digest');
      ({ bytes, digest } = await session.manifest(chosen.digest));
      manifest = parseManifest(bytes);
      if (manifest.kind !== 'image') throw new EngineError('pull', 'The image index names another index, not an image');
    }
    const pull = `${ref.name}@${digest}`;
    const known = this.remembered.get(digest);
    if (known !== undefined) {
      if (known > cap) throw new EngineError('pull', imageTooLargeMessage(Math.floor(known / MiB), capMb));
      return { pull, unpackedBytes: known, downloadedBytes: 0 };
    }
    const layers = [...new Map(manifest.layers.map((l) => [l.digest, l])).values()];
    const compressed = layers.reduce((n, l) => n + l.size, manifest.config.size);
    if (compressed > cap) throw new EngineError('pull', imageTooLargeMessage(Math.floor(compressed / MiB), capMb, true));
    let total = 0;
    let downloaded = 0;
    for (const layer of layers) {
      const counted = await session.countBlob(layer, cap - total, (n) => imageTooLargeMessage(Math.floor((total + n) / MiB), capMb, true));
      downloaded += layer.size;
      total += counted;
    }
    this.remembered.delete(digest);
    this.remembered.set(digest, total);
    if (this.remembered.size > MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    return { pull, unpackedBytes: total, downloadedBytes: downloaded };
  }
}

/** One check's conversation with a registry: its token (Bearer) or basic credential, kept across requests. */
class RegistrySession {
  private authorization: string | undefined;
  private readonly base: string;

  constructor(
    private readonly fetch: typeof globalThis.fetch,
    private readonly ref: ImageReference,
    private readonly auth: RegistryAuth | undefined,
    private readonly signal: AbortSignal,
  ) {
    this.base = registryBaseUrl(ref.registry);
  }

  async manifest(reference: string): Promise<{ bytes: Buffer; digest: string }> {
    const res = await this.get(`/v2/${this.ref.repository}/manifests/${reference}`, { accept: MANIFEST_TYPES.join(', ') });
    if (!res.ok) throw this.refusal(res.status);
    const bytes = await readAtMost(res, MAX_MANIFEST_BYTES, 'The image manifest');
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (reference.startsWith('sha256:') && reference !== digest)
      throw new EngineError('pull', 'The registry answered with another manifest than the digest asked for');
    return { bytes, digest };
  }

  /** Streams one layer through the unpacked counter (registry/unpacked.ts); returns what it unpacks to. */
  async countBlob(layer: Descriptor, limitBytes: number, tooLarge: (unpacked: number) => string): Promise<number> {
    if (!DIGEST.test(layer.digest)) throw new EngineError('pull', `The layer ${layer.digest} is not named by a sha256 digest`);
    const res = await this.get(`/v2/${this.ref.repository}/blobs/${layer.digest}`, {});
    if (!res.ok || !res.body) throw this.refusal(res.status);
    const counter = new UnpackedCounter(limitBytes, tooLarge);
    const hash = createHash('sha256');
    let read = 0;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        read += value.length;
        // A registry sending more than the manifest says is not sending this layer.
        if (read > layer.size)
          throw new EngineError('pull', `The registry sent more of the layer ${layer.digest.slice(0, 19)} than its manifest declares`);
        hash.update(value);
        if (!counter.write(Buffer.from(value.buffer, value.byteOffset, value.length))) await counter.drained();
        if (counter.problem) break;
      }
      if (!counter.problem) await counter.end();
    } finally {
      counter.dispose();
      await reader.cancel().catch(() => undefined);
    }
    if (counter.problem) {
      throw new EngineError(
        'pull',
        counter.unpacked > limitBytes ? counter.problem : `A layer of the image cannot be checked before its pull: ${counter.problem}`,
      );
    }
    if (read !== layer.size || `sha256:${hash.digest('hex')}` !== layer.digest) {
      throw new EngineError('pull', `The registry sent a layer that does not match its digest ${layer.digest.slice(0, 19)}…`);
    }
    return counter.unpacked;
  }

  private refusal(status: number): EngineError {
    if (status === 401 || status === 403) {
      return new EngineError(
        'pull',
        this.auth?.username
          ? 'Checking the image before its pull failed: the registry refused the credential (check the registry credential saved with the service)'
          : 'Checking the image before its pull failed: the registry refused a pull without a credential (save a registry credential for it and choose it for the service)',
      );
    }
    if (status === 404) return new EngineError('pull', 'Checking the image before its pull failed: the registry has no such image or tag');
    return new EngineError('pull', `Checking the image before its pull failed: the registry answered ${status}`);
  }

  /** A GET with the session's authorization; on a 401 the challenge is answered once and the GET tried again. */
  private async get(path: string, headers: Record<string, string>): Promise<Response> {
    let res = await this.follow(`${this.base}${path}`, headers);
    if (res.status !== 401) return res;
    await res.body?.cancel();
    const challenge = parseChallenge(res.headers.get('www-authenticate'));
    const basic = this.auth?.username
      ? `Basic ${Buffer.from(`${this.auth.username}:${this.auth.password}`).toString('base64')}`
      : undefined;
    if (challenge?.scheme === 'bearer' && challenge.params.realm) this.authorization = await this.token(challenge, basic);
    else if (challenge?.scheme === 'basic' && basic) this.authorization = basic;
    else return new Response(null, { status: 401 });
    res = await this.follow(`${this.base}${path}`, headers);
    return res;
  }

  /** The Bearer token for pulling this repository, asked of the challenge's realm with the credential (if any). */
  private async token(challenge: Challenge, basic: string | undefined): Promise<string> {
    let realm: URL;
    try {
      realm = new URL(challenge.params.realm!);
    } catch {
      throw new EngineError('pull', 'The registry asked for a token from a realm that is not a URL');
    }
    // A TLS registry's token comes over TLS too: the credential never goes out in the clear.
    if (realm.protocol !== 'https:' && !(realm.protocol === 'http:' && this.base.startsWith('http:'))) {
      throw new EngineError('pull', `The registry asked for a token from ${realm.protocol}// (only https)`);
    }
    if (challenge.params.service) realm.searchParams.set('service', challenge.params.service);
    realm.searchParams.set('scope', `repository:${this.ref.repository}:pull`);
    const res = await this.fetch(realm, { headers: basic ? { authorization: basic } : {}, redirect: 'error', signal: this.signal });
    if (!res.ok) {
      await res.body?.cancel();
      // The token service's refusal of a credential is the registry's (400 from some, for a bad password).
      throw this.refusal(res.status === 400 ? 401 : res.status);
    }
    const body = JSON.parse((await readAtMost(res, MAX_TOKEN_BYTES, 'The registry token')).toString('utf8')) as {
      token?: string;
      access_token?: string;
    };
    const token = body.token ?? body.access_token;
    if (!token) throw new EngineError('pull', 'The registry answered the token request without a token');
    return `Bearer ${token}`;
  }

  /**
   * Follows redirects by hand: blobs are often served from another host (a CDN), which gets the
   * request without the registry's authorization; only http(s), and at most MAX_REDIRECTS.
   */
  private async follow(start: string, headers: Record<string, string>): Promise<Response> {
    let url = new URL(start);
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      const sameOrigin = url.origin === origin;
      const res = await this.fetch(url, {
        headers: { ...headers, ...(sameOrigin && this.authorization ? { authorization: this.authorization } : {}) },
        redirect: 'manual',
        signal: this.signal,
      });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return res;
      await res.body?.cancel();
      const next = new URL(location, url);
      if (
        hop >= MAX_REDIRECTS ||
        (next.protocol !== 'https:' && next.protocol !== 'http:') ||
        (url.protocol === 'https:' && next.protocol !== 'https:')
      ) {
        throw new EngineError('pull', 'Checking the image before its pull failed: the registry redirected too often or away from https');
      }
      url = next;
    }
  }
}

/** The body, refused once it passes `max` bytes (a registry's answer is never trusted to be small). */
async function readAtMost(res: Response, max: number, what: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > max) {
    await res.body?.cancel();
    throw new EngineError('pull', `${what} is larger than ${max / MiB} MB`);
  }
  const chunks: Buffer[] = [];
  let read = 0;
  if (!res.body) return Buffer.alloc(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    read += chunk.length;
    if (read > max) throw new EngineError('pull', `${what} is larger than ${max / MiB} MB`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
