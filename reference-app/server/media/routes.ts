import { Hono } from 'hono';
import type { MediaStore } from './store';

// /media/files/<key>: files of the media store. Only raster images, audio and video display
// inline; everything else (SVG and PDF included, which can carry scripts) downloads, and nosniff
// plus a sandboxing CSP keep a browser from running an upload as a page of this site.

const INLINE = /^(image\/(png|jpeg|gif|webp)|audio\/|video\/)/;

export function mediaFileRoutes(store: MediaStore) {
  const app = new Hono();
  app.get('/files/:key', async (c) => {
    const key = c.req.param('key');
    const file = await store.get(key);
    if (!file) return c.text('Not found', 404);
    return c.body(file.body, 200, {
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Content-Disposition': INLINE.test(file.contentType) ? 'inline' : `attachment; filename="${key}"`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      // Keys are random and never reused: a file never changes under its URL.
      'Cache-Control': 'private, max-age=31536000, immutable',
    });
  });
  return app;
}
