// The size check before the engine pulls an image of another registry (hosting/pullCheck.ts;
// docs/publishing.md, "Image size"): references, challenges, manifests and indexes read as the
// engine reads them, and a loopback registry speaking the v2 API with token auth, a CDN redirect
// and a gzip bomb, so the check's own conversation is exercised for real.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hostPlatform,
  parseChallenge,
  parseImageReference,
  parseManifest,
  pickManifest,
  PullCheck,
  registryBaseUrl,
} from '../../../reference-app/server/hosting/pullCheck';

const MiB = 1024 * 1024;
const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const D = `sha256:${'a'.repeat(64)}`;

describe('image references', () => {
  it('reads them as the engine does: Docker Hub, hosts with ports, tags and digests', () => {
    expect(parseImageReference('nginx:1')).toEqual({ registry: 'docker.io', repository: 'library/nginx', reference: '1', name: 'nginx' });
    expect(parseImageReference('me/model')).toMatchObject({ registry: 'docker.io', repository: 'me/model', reference: 'latest' });
    expect(parseImageReference('ghcr.io/o/r:v1.2')).toMatchObject({ registry: 'ghcr.io', repository: 'o/r', reference: 'v1.2' });
    expect(parseImageReference(`127.0.0.1:5000/team/m@${D}`)).toEqual({
      registry: '127.0.0.1:5000',
      repository: 'team/m',
      reference: D,
      name: '127.0.0.1:5000/team/m',
    });
    expect(parseImageReference('localhost:5000/x')).toMatchObject({ registry: 'localhost:5000', repository: 'x', reference: 'latest' });
  });

  it('refuses what is not a reference, in words', () => {
    expect(() => parseImageReference('ghcr.io/../etc:1')).toThrow(/is not an image reference/);
    expect(() => parseImageReference('ghcr.io/o/r@sha256:xyz')).toThrow(/is not an image reference/);
    expect(() => parseImageReference('ghcr.io/O/R:1')).toThrow(/is not an image reference/);
  });

  it('talks plain HTTP to loopback registries only, as deploy/podman/registries.conf has it', () => {
    expect(registryBaseUrl('127.0.0.1:5000')).toBe('http://127.0.0.1:5000');
    expect(registryBaseUrl('localhost:5000')).toBe('http://localhost:5000');
    expect(registryBaseUrl('registry.example.com:5000')).toBe('https://registry.example.com:5000');
    expect(registryBaseUrl('docker.io')).toBe('https://registry-1.docker.io');
  });
});

describe('WWW-Authenticate challenges', () => {
  it('reads a Bearer challenge with quoted parameters and commas inside them', () => {
    expect(
      parseChallenge('Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:a/b:pull,push"'),
    ).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://auth.example.com/token', service: 'registry.example.com', scope: 'repository:a/b:pull,push' },
    });
  });

  it('reads Basic, unquoted values and escapes', () => {
    expect(parseChallenge('Basic realm="limelight-test"')).toEqual({ scheme: 'basic', params: { realm: 'limelight-test' } });
    expect(parseChallenge('Bearer realm=https://a/t, service="s\\"x"')).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://a/t', service: 's"x' },
    });
    expect(parseChallenge(null)).toBeNull();
    expect(parseChallenge('')).toBeNull();
  });
});

describe('manifests and indexes', () => {
  const entry = (architecture: string, digest = D) => ({ digest, size: 100, platform: { os: 'linux', architecture } });

  it("picks the host's platform from an index, else linux/amd64, else none", () => {
    const index = [entry('arm64', `sha256:${'1'.repeat(64)}`), entry('amd64', `sha256:${'2'.repeat(64)}`)];
    expect(pickManifest(index, { os: 'linux', architecture: 'arm64' })?.digest).toBe(`sha256:${'1'.repeat(64)}`);
    expect(pickManifest(index, { os: 'linux', architecture: 's390x' })?.digest).toBe(`sha256:${'2'.repeat(64)}`);
    expect(pickManifest([entry('arm64')], { os: 'linux', architecture: 'amd64' })).toBeNull();
    expect(hostPlatform('x64')).toEqual({ os: 'linux', architecture: 'amd64' });
  });

  it('reads an image manifest and an index, and refuses anything else in words', () => {
    const image = { schemaVersion: 2, config: { digest: D, size: 10 }, layers: [{ digest: D, size: 20 }] };
    expect(parseManifest(Buffer.from(JSON.stringify(image)))).toEqual({ kind: 'image', config: image.config, layers: image.layers });
    expect(parseManifest(Buffer.from(JSON.stringify({ schemaVersion: 2, manifests: [entry('amd64')] })))).toMatchObject({ kind: 'index' });
    expect(() => parseManifest(Buffer.from('{'))).toThrow(/not JSON/);
    expect(() => parseManifest(Buffer.from(JSON.stringify({ schemaVersion: 1, fsLayers: [] })))).toThrow(/schema 2/);
    expect(() => parseManifest(Buffer.from(JSON.stringify({ ...image, layers: [{ digest: D, size: -1 }] })))).toThrow(
      /without a digest or size/,
    );
  });
});

/** A loopback registry: token auth (Bearer realm on /token, basic credential there), blobs redirected to a second origin. */
class FakeRegistry {
  readonly blobs = new Map<string, Buffer>();
  readonly manifests = new Map<string, { type: string; body: Buffer }>();
  /** Blob requests answered, and the Authorization each carried (on the CDN origin too). */
  readonly blobGets: { digest: string; authorization?: string }[] = [];
  readonly manifestGets: string[] = [];
  /** Blobs whose bytes are swapped for others (a registry showing the check another layer). */
  readonly lying = new Set<string>();
  /** Blobs that are answered, then never sent. */
  readonly stalled = new Set<string>();
  private token = `tok-${Math.random().toString(36).slice(2)}`;
  private server!: Server;
  private cdn!: Server;
  host = '';
  private cdnOrigin = '';

  constructor(
    readonly username = 'alice',
    readonly password = 'secret',
  ) {}

  async start(): Promise<void> {
    this.cdn = await listen((req, res) => this.serveBlob(req, res, decodeURIComponent(req.url!.slice(1))));
    this.cdnOrigin = `http://127.0.0.1:${(this.cdn.address() as AddressInfo).port}`;
    this.server = await listen((req, res) => this.serve(req, res));
    this.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const s of [this.server, this.cdn]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  }

  blob(bytes: Buffer): { digest: string; size: number } {
    const digest = sha(bytes);
    this.blobs.set(digest, bytes);
    return { digest, size: bytes.length };
  }

  /** Stores an image of `layers` under `tag` (and its digest); returns the manifest's digest. */
  image(repository: string, tag: string, layers: Buffer[]): string {
    const config = this.blob(Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux' })));
    const manifest = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
      layers: layers.map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...this.blob(l) })),
    };
    return this.manifest(repository, tag, manifest, 'application/vnd.oci.image.manifest.v1+json');
  }

  manifest(repository: string, tag: string, json: unknown, type: string): string {
    const body = Buffer.from(JSON.stringify(json));
    const digest = sha(body);
    this.manifests.set(`${repository}/${tag}`, { type, body });
    this.manifests.set(`${repository}/${digest}`, { type, body });
    return digest;
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/token') {
      const basic = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
      if (req.headers.authorization !== basic || !url.searchParams.get('scope')?.endsWith(':pull')) return void res.writeHead(401).end();
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: this.token }));
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      res.writeHead(401, { 'www-authenticate': `Bearer realm="http://${this.host}/token",service="fake",scope="repository:x:pull"` });
      return void res.end();
    }
    const m = url.pathname.match(/^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/);
    if (!m) return void res.writeHead(404).end();
    if (m[2] === 'manifests') {
      this.manifestGets.push(m[3]!);
      const found = this.manifests.get(`${m[1]}/${m[3]}`);
      if (!found) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': found.type }).end(found.body);
    }
    // Blobs are served from another origin, as registries hand them to a CDN.
    res.writeHead(307, { location: `${this.cdnOrigin}/${encodeURIComponent(m[3]!)}` }).end();
  }

  private serveBlob(req: IncomingMessage, res: ServerResponse, digest: string): void {
    this.blobGets.push({ digest, authorization: req.headers.authorization });
    const bytes = this.blobs.get(digest);
    if (!bytes) return void res.writeHead(404).end();
    if (this.stalled.has(digest)) return void res.writeHead(200, { 'content-length': bytes.length }).flushHeaders();
    res.writeHead(200).end(this.lying.has(digest) ? Buffer.from(bytes).fill(0x20, bytes.length - 8) : bytes);
  }
}

const listen = (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
  new Promise<Server>((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

describe('PullCheck against a registry with token auth', () => {
  const registry = new FakeRegistry();
  const auth = () => ({ username: registry.username, password: registry.password, serveraddress: registry.host });
  const amd64 = { os: 'linux', architecture: 'amd64' };
  /** 2 MB of something that compresses (an ordinary layer) and 64 MB of zeros (a bomb of about 64 KB). */
  const small = gzipSync(Buffer.alloc(2 * MiB, 'layer'));
  const bomb = gzipSync(Buffer.alloc(64 * MiB));
  let smallDigest = '';

  beforeAll(async () => {
    await registry.start();
    smallDigest = registry.image('team/small', '1', [small]);
    registry.image('team/bomb', '1', [bomb]);
  });
  afterAll(() => registry.stop());

  it('counts an image within the cap and names the manifest counted, by digest', async () => {
    const check = new PullCheck({ platform: amd64 });
    const result = await check.check(`${registry.host}/team/small:1`, auth(), 10);
    expect(result).toEqual({ pull: `${registry.host}/team/small@${smallDigest}`, unpackedBytes: 2 * MiB, downloadedBytes: small.length });
    // The CDN got the blob request without the registry's token.
    expect(registry.blobGets.filter((g) => g.digest === sha(small)).every((g) => g.authorization === undefined)).toBe(true);
  });

  it('remembers a counted manifest: a redeploy downloads no layer again', async () => {
    const check = new PullCheck({ platform: amd64 });
    await check.check(`${registry.host}/team/small:1`, auth(), 10);
    const gets = registry.blobGets.length;
    const again = await check.check(`${registry.host}/team/small:1`, auth(), 10);
    expect(again).toMatchObject({ unpackedBytes: 2 * MiB, downloadedBytes: 0 });
    expect(registry.blobGets.length).toBe(gets);
    // A smaller cap later refuses the remembered image without downloading it either.
    await expect(check.check(`${registry.host}/team/small:1`, auth(), 1)).rejects.toThrow(
      'The image is 2 MB unpacked; this plan allows 1 MB',
    );
    expect(registry.blobGets.length).toBe(gets);
  });

  it('stops a gzip bomb as soon as it passes the cap, in the post-pull wording', async () => {
    const check = new PullCheck({ platform: amd64 });
    await expect(check.check(`${registry.host}/team/bomb:1`, auth(), 10)).rejects.toThrow(
      /^The image is more than 1\d MB unpacked; this plan allows 10 MB$/,
    );
  });

  it('refuses at once, reading no layer, when the compressed sizes alone pass the cap', async () => {
    const layer = { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${'b'.repeat(64)}`, size: 11 * MiB };
    registry.manifest(
      'team/huge',
      '1',
      { schemaVersion: 2, config: { digest: D, size: 2 }, layers: [layer] },
      'application/vnd.oci.image.manifest.v1+json',
    );
    const gets = registry.blobGets.length;
    await expect(new PullCheck().check(`${registry.host}/team/huge:1`, auth(), 10)).rejects.toThrow(
      'The image is more than 11 MB unpacked; this plan allows 10 MB',
    );
    expect(registry.blobGets.length).toBe(gets);
  });

  it("picks the host's platform from an index and pulls that manifest by digest", async () => {
    const arm = registry.image('team/multi', 'arm', [gzipSync(Buffer.alloc(MiB))]);
    const x86 = registry.image('team/multi', 'amd', [small]);
    const index = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        { digest: arm, size: 1, platform: { os: 'linux', architecture: 'arm64' } },
        { digest: x86, size: 1, platform: { os: 'linux', architecture: 'amd64' } },
      ],
    };
    registry.manifest('team/multi', '1', index, 'application/vnd.oci.image.index.v1+json');
    const onAmd = await new PullCheck({ platform: amd64 }).check(`${registry.host}/team/multi:1`, auth(), 10);
    expect(onAmd).toMatchObject({ pull: `${registry.host}/team/multi@${x86}`, unpackedBytes: 2 * MiB });
    const onArm = await new PullCheck({ platform: { os: 'linux', architecture: 'arm64' } }).check(
      `${registry.host}/team/multi:1`,
      auth(),
      10,
    );
    expect(onArm).toMatchObject({ pull: `${registry.host}/team/multi@${arm}`, unpackedBytes: MiB });
  });

  it('refuses a layer whose bytes do not match its digest (the engine would be shown another)', async () => {
    // Not compressed: the counter takes the other bytes as they are, only their digest tells.
    const layer = Buffer.alloc(MiB, 'liar');
    registry.image('team/liar', '1', [layer]);
    registry.lying.add(sha(layer));
    await expect(new PullCheck().check(`${registry.host}/team/liar:1`, auth(), 10)).rejects.toThrow(/does not match its digest/);
  });

  it('says which credential was refused, and that the image is missing', async () => {
    await expect(new PullCheck().check(`${registry.host}/team/small:1`, { ...auth(), password: 'wrong' }, 10)).rejects.toThrow(
      /the registry refused the credential/,
    );
    await expect(new PullCheck().check(`${registry.host}/team/small:1`, undefined, 10)).rejects.toThrow(
      /refused a pull without a credential/,
    );
    await expect(new PullCheck().check(`${registry.host}/team/none:1`, auth(), 10)).rejects.toThrow(/has no such image or tag/);
  });

  it('gives up within its time bound on a registry that stops sending', async () => {
    const layer = gzipSync(Buffer.alloc(MiB, 'slow'));
    registry.image('team/slow', '1', [layer]);
    registry.stalled.add(sha(layer));
    const started = Date.now();
    await expect(new PullCheck().check(`${registry.host}/team/slow:1`, auth(), 10, 500)).rejects.toThrow(/did not finish within 1 s/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("skips the platform's own registry, counted at push", async () => {
    const gets = registry.manifestGets.length;
    const result = await new PullCheck({ platformRegistryHost: registry.host }).check(`${registry.host}/team/bomb:1`, auth(), 10);
    expect(result).toEqual({ pull: `${registry.host}/team/bomb:1`, downloadedBytes: 0 });
    expect(registry.manifestGets.length).toBe(gets);
  });
});
