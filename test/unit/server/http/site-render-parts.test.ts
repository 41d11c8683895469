import { describe, expect, it } from 'vitest';
import { moduleAssets, pageShell, TemplateError, type Manifest } from '../../../../reference-app/server/http/siteAssets';
import { DEFAULT_REPO_STATS, repoStatsSource } from '../../../../reference-app/server/site/repoStats';

// The pure parts of the server render (issue 39, item 1): the page shell around the rendered app,
// the CSS and scripts a page module needs, and the star counter the server keeps.

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="The site." />
    <title>Limelight</title>
    <script type="module" crossorigin src="/assets/app-1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/app-1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const MANIFEST: Manifest = {
  'src/pages/home/HomePage.tsx': { file: 'assets/HomePage-2.js', css: ['assets/HomePage-2.css'], imports: ['_app-1.js', '_shared-3.js'] },
  '_app-1.js': { file: 'assets/app-1.js', css: ['assets/app-1.css'] },
  '_shared-3.js': { file: 'assets/shared-3.js', css: ['assets/shared-3.css'], imports: ['_app-1.js'] },
};

describe('page shell', () => {
  it("links a page module's CSS and scripts, and its imports', but not what the template links already", () => {
    expect(moduleAssets(MANIFEST, ['./pages/home/HomePage.tsx'], TEMPLATE)).toEqual({
      css: ['assets/HomePage-2.css', 'assets/shared-3.css'],
      scripts: ['assets/HomePage-2.js', 'assets/shared-3.js'],
    });
    expect(moduleAssets(MANIFEST, ['./pages/none/NonePage.tsx'], TEMPLATE)).toEqual({ css: [], scripts: [] });
  });

  it("replaces the site's title and description with the page's and wraps the app in #root", () => {
    const shell = pageShell(TEMPLATE, {
      head: '<title>Pricing · Limelight</title>',
      htmlClass: 'dark_1',
      css: ['assets/p.css'],
      scripts: ['assets/p.js'],
    });
    const html = `${shell.prefix}<main>app</main>${shell.suffix('<script type="application/json">{}</script>')}`;
    expect(html).toContain('<html lang="en" class="dark_1">');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Pricing · Limelight</title>');
    expect(html).not.toContain('The site.');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/p.css">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/p.js">');
    expect(html).toContain('<div id="root"><main>app</main></div><script type="application/json">{}</script>');
  });

  it('refuses a template without the root element', () => {
    expect(() => pageShell('<html><head></head><body></body></html>', { head: '', htmlClass: '', css: [], scripts: [] })).toThrow(
      TemplateError,
    );
  });
});

describe('star counter', () => {
  const answer = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status }));

  it('shows the defaults until GitHub answers, then its counts, and asks again only when they are stale', async () => {
    let now = 0;
    const calls: string[] = [];
    const source = repoStatsSource(
      'https://github.test/repo',
      (url) => {
        calls.push(String(url));
        return answer({ stargazers_count: 300, forks_count: 40 });
      },
      () => now,
    );
    expect(source.current()).toEqual(DEFAULT_REPO_STATS);
    await source.settled();
    expect(source.current()).toEqual({ stars: 300, forks: 40 });
    now += 30 * 60_000;
    source.current();
    expect(calls).toHaveLength(1);
    now += 31 * 60_000;
    source.current();
    expect(calls).toHaveLength(2);
  });

  it('keeps the last counts when GitHub fails or answers without them', async () => {
    let now = 0;
    const answers = [answer({ stargazers_count: 7, forks_count: 1 }), answer({ message: 'rate limited' }, 403), answer({})];
    const source = repoStatsSource(
      'https://github.test/repo',
      () => answers.shift()!,
      () => now,
    );
    source.current();
    await source.settled();
    for (let i = 0; i < 2; i += 1) {
      now += 2 * 60 * 60_000;
      source.current();
      await source.settled();
      expect(source.current()).toEqual({ stars: 7, forks: 1 });
    }
  });
});
