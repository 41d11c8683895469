import { rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { log } from '../log';
import { blobDataPath, QUOTA_ADVICE, storedBytes, uploadDirOf } from './quota';
import type { Access } from './scopes';
import type { PushLimits } from './tokens';
import { UnpackedCounter, unpackedSizeOfFile } from './unpacked';

// The platform's proxy in front of docker-registry (docs/publishing.md, "The platform's
// registry"). Publishers and the runner talk to it on PLATFORM_REGISTRY_ADDR; docker-registry
// listens on a unix socket only this proxy uses. Reads stream through untouched. Writes with a
// push token are counted against the namespace's storage quota while their bytes arrive: the
// namespace's stored blobs and manifests (read from the registry's storage when no write of it is
// under way), plus every unfinished upload's bytes, plus manifests being written. The byte that
// would pass the quota is never forwarded: the request is cut off with Distribution's error
// format (403 DENIED and the quota in words) and its upload removed, so with one key no sequence of
// calls stores more than the quota. Each namespace has at most MAX_OPEN_UPLOADS unfinished
// uploads; one untouched for PLATFORM_REGISTRY_UPLOAD_IDLE_S is removed. Every layer is unpacked on
// the fly (registry/unpacked.ts) and refused as soon as it unpacks to more than the plan's image
// cap, and a manifest whose layers unpack to more than that cap together is refused, so no image
// of this registry fills the runner's disk when the engine unpacks it.

/** Unfinished uploads one namespace may hold at once (a push opens one per layer, a few at a time). */
export const MAX_OPEN_UPLOADS = 32;
/** Distribution's own limit on a manifest's body. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MiB = 1024 * 1024;
/** How long the rest of a refused request's body is read and dropped before its connection is closed. */
const CUT_DRAIN_MS = 30_000;
/** Remembered unpacked sizes of layers pushed through the proxy (a manifest's check reads them). */
const MAX_REMEMBERED_LAYERS = 20_000;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect']);
const REPOSITORY = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)+$/;

export interface TokenClaims {
  subject: string;
  access: Access[];
  limits: PushLimits | undefined;
}

export interface RegistryProxyOptions {
  /** docker-registry's unix socket. */
  socket: string;
  storageDir: string;
  /** What a bearer token says, or null when it is not one of the platform's. */
  verify: (token: string) => Promise<TokenClaims | null>;
  /** Limits for a push token that carries none (one issued before this proxy existed). */
  fallbackLimits: PushLimits;
  uploadIdleMs: number;
}

interface Session {
  uuid: string;
  repository: string;
  namespace: string;
  bytes: number;
  counter: UnpackedCounter;
  busy: number;
  lastActive: number;
}

interface NamespaceUse {
  /** Stored bytes read from the storage when no write of this namespace was under way. */
  base: number | undefined;
  reading: Promise<void> | null;
  /** Bytes committed (blobs, manifests) since `base` was read. */
  committed: number;
  /** Bytes of this namespace's unfinished uploads. */
  uploading: number;
  /** Bytes of manifests being received. */
  receiving: number;
  sessions: Set<string>;
  starting: number;
  writes: number;
}

type Route =
  | { kind: 'start'; repository: string }
  | { kind: 'upload'; repository: string; uuid: string }
  | { kind: 'manifest'; repository: string; reference: string };

function routeOf(method: string, pathname: string): Route | null {
  let m = /^\/v2\/(.+)\/blobs\/uploads\/?$/.exec(pathname);
  if (m && method === 'POST') return REPOSITORY.test(m[1]!) ? { kind: 'start', repository: m[1]! } : null;
  m = /^\/v2\/(.+)\/blobs\/uploads\/([^/]+)$/.exec(pathname);
  if (m && (method === 'PATCH' || method === 'PUT' || method === 'DELETE')) {
    return REPOSITORY.test(m[1]!) ? { kind: 'upload', repository: m[1]!, uuid: m[2]! } : null;
  }
  m = /^\/v2\/(.+)\/manifests\/([^/]+)$/.exec(pathname);
  if (m && method === 'PUT') return REPOSITORY.test(m[1]!) ? { kind: 'manifest', repository: m[1]!, reference: m[2]! } : null;
  return null;
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/**
 * Distribution's error body with the platform's words. `close`: end the connection after it (a
 * request whose body is still arriving is drained instead: see RegistryProxy.cut).
 */
function refuse(res: ServerResponse, status: number, code: string, message: string, close = true): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ errors: [{ code, message, detail: message }] });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'docker-distribution-api-version': 'registry/2.0',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
}

const mb = (bytes: number) => (bytes / MiB).toFixed(1);
const idleWords = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} s`);

export class RegistryProxy {
  private readonly server: http.Server;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly sessions = new Map<string, Session>();
  private readonly namespaces = new Map<string, NamespaceUse>();
  private readonly unpackedByDigest = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private purger: NodeJS.Timeout | null = null;

  constructor(private readonly options: RegistryProxyOptions) {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        log.error({ err: error }, 'the registry proxy failed on a request');
        refuse(res, 500, 'UNKNOWN', 'The registry failed on this request');
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on `addr` (host:port); rejects with the listen error (EADDRINUSE: another holds it). */
  listen(addr: string): Promise<void> {
    const at = addr.lastIndexOf(':');
    const host = addr.slice(0, at).replace(/^\[|\]$/g, '');
    const port = Number(addr.slice(at + 1));
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host, port, exclusive: true }, () => {
        this.server.off('error', reject);
        const every = Math.max(1_000, Math.min(60_000, this.options.uploadIdleMs / 2));
        this.purger = setInterval(() => this.purgeIdle(), every);
        this.purger.unref();
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    if (this.purger) clearInterval(this.purger);
    for (const session of this.sessions.values()) session.counter.dispose();
    this.sessions.clear();
    if (!this.server.listening) return;
    const closed = new Promise((resolve) => this.server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.agent.destroy();
  }

  private use(namespace: string): NamespaceUse {
    let use = this.namespaces.get(namespace);
    if (!use) {
      use = { base: undefined, reading: null, committed: 0, uploading: 0, receiving: 0, sessions: new Set(), starting: 0, writes: 0 };
      this.namespaces.set(namespace, use);
    }
    return use;
  }

  private used(use: NamespaceUse): number {
    return (use.base ?? 0) + use.committed + use.uploading + use.receiving;
  }

  private async readBase(use: NamespaceUse, namespace: string): Promise<void> {
    if (use.base !== undefined) return;
    use.reading ??= storedBytes(this.options.storageDir, namespace).then((bytes) => {
      use.base = bytes;
      use.committed = 0;
      use.reading = null;
    });
    await use.reading;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://registry');
    const route = routeOf(req.method ?? 'GET', url.pathname);
    if (!route) return void this.forward(req, res);
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const claims = bearer ? await this.options.verify(bearer) : null;
    const pushes = claims?.access.some((a) => a.type === 'repository' && a.name === route.repository && a.actions.includes('push'));
    // Without a push grant for this repository the registry itself refuses the request.
    if (!claims || !pushes) return void this.forward(req, res);
    const limits = claims.limits ?? this.options.fallbackLimits;
    const namespace = route.repository.split('/')[0]!;
    const use = this.use(namespace);
    use.writes++;
    try {
      await this.readBase(use, namespace);
      if (route.kind === 'start') await this.start(req, res, route.repository, use, limits);
      else if (route.kind === 'upload') await this.upload(req, res, route, url, use, limits);
      else await this.manifest(req, res, use, limits);
    } finally {
      // With no write under way the storage is read afresh next time (deleted images, deduplicated blobs).
      if (--use.writes === 0) use.base = undefined;
    }
  }

  private quotaWords(use: NamespaceUse, adding: number, limits: PushLimits): string {
    return (
      `Registry storage quota exceeded: your images and unfinished uploads would use ${mb(this.used(use) + adding)} MB ` +
      `and your ${limits.plan} plan allows ${limits.quota_mb} MB; ${QUOTA_ADVICE}`
    );
  }

  /** POST …/blobs/uploads/: a new upload, unless the namespace already holds its share of them. */
  private async start(req: IncomingMessage, res: ServerResponse, repository: string, use: NamespaceUse, limits: PushLimits): Promise<void> {
    if (use.sessions.size + use.starting >= MAX_OPEN_UPLOADS) {
      req.resume();
      return refuse(
        res,
        429,
        'TOOMANYREQUESTS',
        `Too many unfinished uploads: your namespace has ${MAX_OPEN_UPLOADS} open; finish or cancel them ` +
          `(unfinished uploads are removed after ${idleWords(this.options.uploadIdleMs)} without a byte)`,
      );
    }
    use.starting++;
    let bodyBytes = 0;
    try {
      await this.exchange(req, res, {
        admit: (chunk) => {
          if (this.used(use) + chunk.length > limits.quota_mb * MiB) return this.quotaWords(use, chunk.length, limits);
          bodyBytes += chunk.length;
          use.receiving += chunk.length;
          return null;
        },
        answered: (status, headers) => {
          const uuid = headers['docker-upload-uuid'];
          if (status !== 202 || typeof uuid !== 'string' || !/^[0-9a-f-]{36}$/.test(uuid)) return;
          const counter = new UnpackedCounter(
            limits.image_mb * MiB,
            (n) =>
              `Image too large: a layer unpacks to more than ${mb(n)} MB and your ${limits.plan} plan allows images of ${limits.image_mb} MB unpacked`,
          );
          this.sessions.set(uuid, {
            uuid,
            repository,
            namespace: repository.split('/')[0]!,
            bytes: 0,
            counter,
            busy: 0,
            lastActive: Date.now(),
          });
          use.sessions.add(uuid);
        },
      });
    } finally {
      use.starting--;
      use.receiving -= bodyBytes;
    }
  }

  /** PATCH, PUT (complete) or DELETE (cancel) of an upload: its bytes counted and unpacked as they pass. */
  private async upload(
    req: IncomingMessage,
    res: ServerResponse,
    route: { repository: string; uuid: string },
    url: URL,
    use: NamespaceUse,
    limits: PushLimits,
  ): Promise<void> {
    const session = this.sessions.get(route.uuid);
    if (!session || session.repository !== route.repository) {
      if (req.method === 'DELETE') return void this.forward(req, res);
      req.resume();
      return refuse(
        res,
        404,
        'BLOB_UPLOAD_UNKNOWN',
        'This upload is unknown to the registry (it was idle too long, refused, or started before the registry restarted); start it again',
      );
    }
    if (session.busy > 0 && req.method !== 'DELETE') {
      req.resume();
      return refuse(res, 400, 'BLOB_UPLOAD_INVALID', 'Another request is already writing this upload');
    }
    session.busy++;
    session.lastActive = Date.now();
    const completing = req.method === 'PUT';
    try {
      const status = await this.exchange(req, res, {
        admit: (chunk) => {
          session.lastActive = Date.now();
          if (this.used(use) + chunk.length > limits.quota_mb * MiB) return this.quotaWords(use, chunk.length, limits);
          session.bytes += chunk.length;
          use.uploading += chunk.length;
          return null;
        },
        count: (chunk) => session.counter.write(chunk),
        countDrained: () => session.counter.drained(),
        stoppable: (stop) => (session.counter.onProblem = stop),
        // What the request wrote is counted before the registry answers it; a completed layer must
        // also end as a whole gzip stream.
        beforeEnd: async () => {
          await (completing ? session.counter.end() : session.counter.flushed());
          return session.counter.problem;
        },
        refused: () => this.drop(session, true),
      });
      if (status === null) return;
      if (completing && status === 201) {
        const digest = url.searchParams.get('digest');
        if (digest) this.remember(digest, session.counter.unpacked);
        use.committed += session.bytes;
        this.drop(session, false);
      } else if (req.method === 'DELETE' && status < 300) {
        this.drop(session, false);
      } else if (completing && status >= 400) {
        // A refused completion (wrong digest…) ends the upload in Distribution too.
        this.drop(session, true);
      }
    } finally {
      session.counter.onProblem = null;
      session.busy--;
      session.lastActive = Date.now();
    }
  }

  /** PUT …/manifests/<reference>: counted against the quota, and its image's unpacked size checked. */
  private async manifest(req: IncomingMessage, res: ServerResponse, use: NamespaceUse, limits: PushLimits): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      // A refusal is sent after the loop: the iterator lets go of the stream only once it is left,
      // and cut() then reads the rest of the body before answering.
      let refusal: [string, number?, string?] | undefined;
      for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        if (this.used(use) + chunk.length > limits.quota_mb * MiB) {
          refusal = [this.quotaWords(use, chunk.length, limits)];
          break;
        }
        size += chunk.length;
        use.receiving += chunk.length;
        if (size > MAX_MANIFEST_BYTES) {
          refusal = ['The manifest is larger than 4 MB', 400, 'MANIFEST_INVALID'];
          break;
        }
        chunks.push(chunk);
      }
      if (refusal) return this.cut(req, res, ...refusal);
      const body = Buffer.concat(chunks);
      const problem = await this.imageProblem(body, limits);
      if (problem) return refuse(res, 403, 'DENIED', problem);
      const status = await this.exchange(req, res, { buffered: body });
      if (status === 201) use.committed += size;
    } catch {
      res.destroy();
    } finally {
      use.receiving -= size;
    }
  }

  /** Why an image manifest's layers together unpack to more than the plan allows, or null. */
  private async imageProblem(body: Buffer, limits: PushLimits): Promise<string | null> {
    let manifest: { layers?: { digest?: unknown }[] };
    try {
      manifest = JSON.parse(body.toString('utf8')) as typeof manifest;
    } catch {
      return null; // the registry answers MANIFEST_INVALID
    }
    if (!Array.isArray(manifest.layers)) return null; // an index names manifests, each checked when pushed
    const cap = limits.image_mb * MiB;
    let total = 0;
    for (const layer of manifest.layers) {
      const digest = typeof layer?.digest === 'string' ? layer.digest : '';
      let unpacked = this.unpackedByDigest.get(digest);
      if (unpacked === undefined) {
        // A layer pushed before the server restarted: counted from the stored blob.
        const file = blobDataPath(this.options.storageDir, digest);
        if (!file) return `The layer ${digest.slice(0, 80)} is not named by a sha256 digest, which this registry checks`;
        const counted = await unpackedSizeOfFile(file, cap - total).catch(() => null);
        if (!counted) return null; // not stored: the registry answers BLOB_UNKNOWN
        if (counted.problem && counted.problem !== 'too large') return `The layer ${digest}: ${counted.problem}`;
        unpacked = counted.unpacked;
        if (!counted.problem) this.remember(digest, unpacked);
      }
      total += unpacked;
      if (total > cap) {
        return `Image too large: its layers unpack to more than ${mb(total)} MB and your ${limits.plan} plan allows images of ${limits.image_mb} MB unpacked`;
      }
    }
    return null;
  }

  private remember(digest: string, unpacked: number): void {
    this.unpackedByDigest.delete(digest);
    this.unpackedByDigest.set(digest, unpacked);
    if (this.unpackedByDigest.size > MAX_REMEMBERED_LAYERS) this.unpackedByDigest.delete(this.unpackedByDigest.keys().next().value!);
  }

  /** Forgets an upload; `remove` also deletes what Distribution stored of it. */
  private drop(session: Session, remove: boolean): void {
    if (this.sessions.get(session.uuid) !== session) return;
    this.sessions.delete(session.uuid);
    const use = this.use(session.namespace);
    use.sessions.delete(session.uuid);
    use.uploading -= session.bytes;
    session.counter.dispose();
    if (remove) {
      const dir = uploadDirOf(this.options.storageDir, session.repository, session.uuid);
      // Once the registry has let go of the cut request; again later for anything it wrote after.
      const removeDir = () => void rm(dir, { recursive: true, force: true }).catch(() => undefined);
      setTimeout(removeDir, 200).unref();
      setTimeout(removeDir, 5_000).unref();
    }
  }

  private purgeIdle(): void {
    const now = Date.now();
    for (const session of [...this.sessions.values()]) {
      if (session.busy === 0 && now - session.lastActive > this.options.uploadIdleMs) this.drop(session, true);
    }
  }

  /**
   * Refuses a request whose body is still arriving. The rest of the body is read and dropped (never
   * stored), and the refusal is sent once it has all arrived: a client still writing would see a
   * broken pipe instead of the answer (Podman did), both when the connection is closed at once and
   * when the answer ends before the body (Node then ends the connection while the client writes;
   * seen under load in CI). A body that goes on for CUT_DRAIN_MS more is cut off.
   */
  private cut(req: IncomingMessage, res: ServerResponse, message: string, status = 403, code = 'DENIED'): void {
    req.resume();
    if (req.complete) return refuse(res, status, code, message, false);
    const timer = setTimeout(() => {
      refuse(res, status, code, message);
      req.socket.destroy();
    }, CUT_DRAIN_MS);
    timer.unref();
    req.once('end', () => {
      clearTimeout(timer);
      refuse(res, status, code, message, false);
    });
    req.once('close', () => clearTimeout(timer));
  }

  /** Streams a request to the registry and its answer back, untouched. */
  private forward(req: IncomingMessage, res: ServerResponse): void {
    const upstream = http.request(
      { socketPath: this.options.socket, agent: this.agent, method: req.method, path: req.url, headers: forwardable(req.headers) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => refuse(res, 502, 'UNAVAILABLE', 'The registry is not answering'));
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /**
   * Sends a request to the registry with its body passed chunk by chunk (`admit`, `count`), or
   * `buffered`; the registry's answer goes back to the caller after `answered` has seen it.
   * Resolves with the registry's status once the answer is sent, or null when the request was
   * refused on the way (by `admit`, `beforeEnd`, or the stop handed to `stoppable`).
   */
  private exchange(
    req: IncomingMessage,
    res: ServerResponse,
    how: {
      /** Whether a chunk may pass (null) or why not (the quota). */
      admit?: (chunk: Buffer) => string | null;
      /** Counts a chunk that passed; false when the counter wants `countDrained` before more. */
      count?: (chunk: Buffer) => boolean;
      countDrained?: () => Promise<void>;
      /** Receives the function that refuses the request from outside (a layer found too large). */
      stoppable?: (stop: (message: string) => void) => void;
      beforeEnd?: () => Promise<string | null>;
      buffered?: Buffer;
      answered?: (status: number, headers: IncomingHttpHeaders) => void;
      refused?: () => void;
    },
  ): Promise<number | null> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (status: number | null) => {
        if (settled) return;
        settled = true;
        resolve(status);
      };
      const headers = forwardable(req.headers);
      if (how.buffered) {
        delete headers['transfer-encoding'];
        headers['content-length'] = String(how.buffered.length);
      }
      const upstream = http.request(
        { socketPath: this.options.socket, agent: this.agent, method: req.method, path: req.url, headers },
        (answer) => {
          const status = answer.statusCode ?? 502;
          how.answered?.(status, answer.headers);
          res.writeHead(status, forwardable(answer.headers));
          answer.pipe(res);
          res.once('close', () => settle(res.writableFinished ? status : null));
        },
      );
      let stopped = false;
      upstream.on('error', () => {
        // Destroyed by `stop`, whose refusal is already on its way: the caller's connection stays.
        if (stopped) return;
        refuse(res, 502, 'UNAVAILABLE', 'The registry is not answering');
        settle(null);
      });
      res.once('close', () => {
        if (!res.writableFinished) upstream.destroy();
        if (!res.headersSent) settle(null);
      });
      const stop = (message: string) => {
        if (stopped || settled) return;
        stopped = true;
        req.off('data', onData);
        upstream.destroy();
        how.refused?.();
        this.cut(req, res, message);
        settle(null);
      };
      how.stoppable?.(stop);
      if (how.buffered) {
        upstream.end(how.buffered);
        return;
      }
      // Streamed like a pipe, with the counter beside it: a chunk waits only when the registry's
      // socket or zlib's buffer is full, so counting costs the push little time.
      let waiting = 0;
      const resume = () => {
        if (--waiting === 0 && !stopped) req.resume();
      };
      const onData = (chunk: Buffer) => {
        const refusal = how.admit?.(chunk) ?? null;
        if (refusal) return stop(refusal);
        const flushed = upstream.write(chunk);
        const counted = how.count?.(chunk) ?? true;
        if (flushed && counted) return;
        req.pause();
        if (!flushed) {
          waiting++;
          const done = () => (upstream.off('drain', done), upstream.off('close', done), resume());
          upstream.on('drain', done);
          upstream.on('close', done);
        }
        if (!counted) {
          waiting++;
          void how.countDrained!().then(resume);
        }
      };
      req.on('data', onData);
      req.once('end', () => {
        if (stopped) return;
        void (how.beforeEnd?.() ?? Promise.resolve(null)).then((problem) => {
          if (problem) return stop(problem);
          if (!stopped) upstream.end();
        });
      });
      req.once('aborted', () => {
        // The caller went away mid-body: the registry keeps what it received (counted) until the upload is removed.
        upstream.destroy();
        settle(null);
      });
      req.once('error', () => {
        upstream.destroy();
        settle(null);
      });
    });
  }
}
