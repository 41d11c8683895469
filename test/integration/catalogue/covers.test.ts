import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '../../../src/api/types';
import { exampleMediaDir, realExampleCover } from '../../../reference-app/server/media';
import { SEED_MODELS } from '../../../reference-app/server/seed';
import { globalServer, PUBLISHER, signedIn } from '../helpers';

// Covers (issue 50, item 1; docs/security.md, "Covers"): every seeded service has one of its own,
// on the site's own origin; a real model's example picture stays, everything else (demo
// outputs, text drawings, pictures on other hosts, placeholders) is the designed cover the
// platform draws. Before, 62 services shared 22 pictures, most of them demo output, and two
// pointed the visitor's browser at replicate.delivery and placehold.co.

const target = globalServer();
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function descriptors(token?: string): Promise<ModelDescriptor[]> {
  const response = await fetch(`${target.url}/v1/model_management/model_descriptors`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  expect(response.status).toBe(200);
  return (await response.json()) as ModelDescriptor[];
}

/** Hashes of every example file that is no real model's cover: demo outputs, their drawings, inputs. */
function demoHashes(): Set<string> {
  const dir = exampleMediaDir(process.cwd(), '/nonexistent');
  const hashOf = (name: string) => sha(readFileSync(path.join(dir, name)));
  // A real model's picture may equal a demo's byte for byte (the demo cutout is the real cutout's): it stays.
  const real = new Set(
    SEED_MODELS.map((m) => realExampleCover(m.kind))
      .filter(Boolean)
      .map((url) => hashOf(path.basename(url!))),
  );
  return new Set(
    readdirSync(dir)
      .map(hashOf)
      .filter((hash) => !real.has(hash)),
  );
}

describe('covers of the seeded catalogue', () => {
  it('every service has a cover of its own on the site, and none is a demo output', async () => {
    const models = await descriptors();
    expect(models.length).toBeGreaterThanOrEqual(55);
    const demo = demoHashes();
    const seen = new Map<string, string>();
    for (const model of models) {
      const url = model.display_img_url!;
      expect(new URL(url).origin, model.id).toBe(target.url);
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toMatch(/^image\/(svg\+xml|webp)/);
      const hash = sha(new Uint8Array(await response.arrayBuffer()));
      expect(demo.has(hash), `${model.id} shows a demo output or an example input`).toBe(false);
      expect(seen.get(hash), `${model.id} shares its cover with ${seen.get(hash)}`).toBeUndefined();
      seen.set(hash, model.id);
    }
    expect(seen.size).toBe(models.length);
  });

  it('real models keep their example pictures; the rest, and every picture on another host, get the designed cover', async () => {
    const byId = new Map((await descriptors()).map((m) => [m.id, m.display_img_url!]));
    expect(byId.get('lime-cutout')).toBe(`${target.url}/media/examples/lime-cutout-cover.webp`);
    expect(byId.get('lime-ocr')).toBe(`${target.url}/media/examples/lime-ocr-cover.webp`);
    // Seeded with https://replicate.delivery/… and https://placehold.co/…, a text-to-image demo and a transcript drawing.
    for (const id of ['ideogram-ai/ideogram-v2', 'lucataco/ollama-reflection-70b', 'black-forest-labs/flux-schnell', 'lime-whisper']) {
      expect(byId.get(id), id).toMatch(new RegExp(`^${target.url}/media/covers/${encodeURIComponent(id)}\\.svg\\?v=[0-9a-f]{12}$`));
    }
  });

  it('serves a designed cover as an inert SVG, cached for a year under its version', async () => {
    const url = (await descriptors()).find((m) => m.id === 'black-forest-labs/flux-schnell')!.display_img_url!;
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    const svg = await response.text();
    expect(svg).toContain('flux-schnell');
    expect(svg).toContain('GENERATE IMAGES');
    expect(svg).not.toMatch(/<script|href=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    // Without its version (an old link): the same drawing, kept for minutes only.
    const unversioned = await fetch(url.split('?')[0]!);
    expect(unversioned.status).toBe(200);
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await unversioned.text()).toBe(svg);
  });

  it('answers 404 for an unknown service, and for a private one without its current version', async () => {
    expect((await fetch(`${target.url}/media/covers/no-such-service.svg`)).status).toBe(404);
    expect((await fetch(`${target.url}/media/covers/lime-chat-8b.png`)).status).toBe(404);
    const { session } = await signedIn(target, PUBLISHER);
    const own = (await descriptors(session.access_token)).find((m) => m.id === 'contract-analyst');
    expect(own, 'the publisher sees its private service').toBeDefined();
    const url = own!.display_img_url!;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('contract-analyst');
    // A stranger guessing the id learns nothing, not even that it exists.
    expect((await fetch(url.split('?')[0]!)).status).toBe(404);
    expect((await fetch(`${url.split('?')[0]!}?v=000000000000`)).status).toBe(404);
  });
});
