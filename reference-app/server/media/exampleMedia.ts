import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { MEDIA_TYPES } from './store';

// The seeded services' example media (issue 38, item 3): the inputs and outputs of one real or
// demo run per service, made by `npm run examples` (seed/makeExamples.ts) and kept in the
// repository under reference-app/public/examples, so seeding stays a few inserts. Vite copies
// the folder into dist/app, which the production image keeps; a source checkout reads it in
// place. Served at /media/examples/<name> like stored media, and readable as a job's file
// input, so a Playground's prefilled example runs as it is shown.

export const EXAMPLE_MEDIA_PATH = '/media/examples/';

/** Names the generator writes: a slug, a dot and one of the media store's extensions. */
const NAME = /^[a-z0-9][a-z0-9-]{0,80}\.([a-z0-9]{2,4})$/;

/** The folder of the example media: the source checkout's, else the built site's. */
export function exampleMediaDir(cwd: string, appDir: string): string {
  const source = path.join(cwd, 'reference-app/public/examples');
  return existsSync(source) ? source : path.join(appDir, 'examples');
}

/** The content type of a well-formed example name; undefined for anything else (no path tricks). */
export function exampleContentType(name: string): string | undefined {
  const match = NAME.exec(name);
  return match ? MEDIA_TYPES[match[1]!] : undefined;
}

/** An example file's bytes and type, or undefined when the name is not one or the file is absent. */
export async function readExampleMedia(
  dir: string,
  name: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string } | undefined> {
  const contentType = exampleContentType(name);
  if (!contentType) return undefined;
  try {
    return { bytes: new Uint8Array(await readFile(path.join(dir, name))), contentType };
  } catch {
    return undefined;
  }
}

/** GET /media/examples/<name>: public, and unchanging until the next `npm run examples`. */
export function exampleMediaRoutes(dir: string) {
  const app = new Hono();
  app.get('/examples/:name', async (c) => {
    const file = await readExampleMedia(dir, c.req.param('name'));
    if (!file) return c.text('Not found', 404);
    return c.body(file.bytes, 200, {
      'Content-Type': file.contentType,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'public, max-age=86400',
    });
  });
  return app;
}
