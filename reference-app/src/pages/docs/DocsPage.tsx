import { useLoaderData } from 'react-router';
import type { DocsPageData } from '../../docs/types';
import { DocBlocks, DocsFrame, DocsUnavailable, useDocsTitle } from './DocsFrame';
import * as styles from './docs.css';

/**
 * /docs and /docs/<slug>: the docs index (the quick start, then the guides) and each guide, made
 * by the server from the repository's docs/*.md (docs/deploy.md, "The docs on the site").
 */
export default function DocsPage() {
  const data = useLoaderData() as DocsPageData | null;
  useDocsTitle(data);
  if (!data || data.page.kind === 'api') return <DocsUnavailable />;

  if (data.page.kind === 'doc') {
    const { doc } = data.page;
    const sections = doc.headings.filter((h) => h.level === 2).map((h) => ({ text: h.text, href: `#${h.id}` }));
    return (
      <DocsFrame data={data} current={doc.slug} sections={sections}>
        <article aria-label={doc.title}>
          <DocBlocks blocks={doc.blocks} />
        </article>
      </DocsFrame>
    );
  }

  const { quickstart } = data.page;
  const guides = data.nav.filter((item) => item.slug !== 'quickstart');
  // The quick start's own title gives way to the index's: one h1 per page.
  const blocks = quickstart?.blocks.filter((b, i) => !(i === 0 && b.kind === 'html' && b.html.startsWith('<h1'))) ?? [];
  return (
    <DocsFrame data={data} current="">
      <div className={styles.prose}>
        <h1>Documentation</h1>
        <p>
          Run any model on Limelight from your code, publish your own, and look up every route of the platform API. New here? Start with the
          quick start below.
        </p>
      </div>
      {quickstart ? (
        <section aria-labelledby="quick-start">
          <div className={styles.prose}>
            <h2 id="quick-start">
              <a href="/docs/quickstart">Quick start</a>
            </h2>
          </div>
          <DocBlocks blocks={blocks} />
        </section>
      ) : null}
      <section aria-labelledby="guides">
        <div className={styles.prose}>
          <h2 id="guides">Guides and reference</h2>
        </div>
        <ul className={styles.guides}>
          {guides.map((item) => (
            <li key={item.slug} className={styles.guide}>
              <h3 className={styles.guideTitle}>
                <a href={`/docs/${item.slug}`}>{item.title}</a>
              </h3>
              <p className={styles.muted}>{item.description}</p>
              {item.highlights.length ? (
                <ul className={styles.guideLinks} aria-label={`${item.title}: sections`}>
                  {item.highlights.map((h) => (
                    <li key={h.href}>
                      <a href={h.href}>{h.text}</a>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </DocsFrame>
  );
}
