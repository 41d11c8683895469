import { Hono } from 'hono';
import type { Db } from '../db/types';
import { categoryIds, coverSvg, coverVersion } from './covers';
import { selectCategoryTitles, selectCoverSubject } from './queries';

// /media/covers/<id>.svg?v=<version>: a service's designed cover (media/covers.ts; docs/security.md,
// "Covers"). The catalogue hands out the URL with the version of what the cover shows, so the
// bytes under one URL never change and browsers keep them a year. A private service's cover
// answers only with its current version, which only those shown the service know: the same
// 404 as an unknown id otherwise, so the route tells no stranger a private service's name.

const YEAR = 31_536_000;

export function coverRoutes(db: Db) {
  const app = new Hono();
  app.get('/covers/:file', async (c) => {
    // Ids may hold a slash (owner/name): the URL carries it encoded, and the parameter comes decoded.
    const match = /^(.+)\.svg$/.exec(c.req.param('file'));
    const row = match ? await selectCoverSubject(db, match[1]!) : undefined;
    const current = row ? coverVersion(row) : '';
    const asked = c.req.query('v');
    if (!row || (!row.is_public && asked !== current)) return c.text('Not found', 404);
    const known = new Map((await selectCategoryTitles(db)).map((category) => [category.id, category.title]));
    const categoryId = categoryIds(row.model_category).find((id) => known.has(id));
    const svg = coverSvg({
      id: row.id,
      name: row.display_name,
      category: categoryId ? { id: categoryId, title: known.get(categoryId)! } : null,
    });
    return c.body(svg, 200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      // Opened as a page of its own, the drawing still runs nothing and loads nothing.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      // The current version's bytes never change; an old or missing version is re-asked soon.
      'Cache-Control': asked === current ? `public, max-age=${YEAR}, immutable` : 'public, max-age=300',
    });
  });
  return app;
}
