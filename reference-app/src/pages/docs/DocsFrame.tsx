import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CodeViewer } from '@limelight/widgets/code-viewer';
import { usePlatform } from '@limelight/widgets/platform';
import type { DocBlock, DocsPageData } from '../../docs/types';
import { DocsSearch } from './DocsSearch';
import * as styles from './docs.css';

// What the docs pages share: the sidebar (search, the pages, this page's sections), the page's
// title in the tab, and the rendered blocks of a doc. Links between docs pages are plain links:
// the pages are made by the server (docs/loader.ts), so each one is a document load.

/** Sets the tab's title to the page's own (the server sent the same in the HTML). */
export function useDocsTitle(data: DocsPageData | null) {
  const { brand } = usePlatform();
  const title = data?.meta.title;
  useEffect(() => {
    if (title) document.title = `${title} · ${brand}`;
  }, [title, brand]);
}

/**
 * A code block: plain text first (the server's HTML, and the first render in the browser, so
 * hydration matches), the site's code viewer once it nears the screen. A long guide has dozens of
 * blocks and the API reference one per route; highlighting only what is read keeps the page fast.
 */
export function DocCode({ code, language, label }: { code: string; language: string; label?: string }) {
  const ref = useRef<HTMLPreElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  if (near) return <CodeViewer className={styles.code} code={code} language={language} {...(label ? { label } : {})} />;
  return (
    <pre ref={ref} className={styles.plainCode} tabIndex={0} aria-label={label ?? `${language} code`}>
      <code>{code}</code>
    </pre>
  );
}

export function DocBlocks({ blocks }: { blocks: readonly DocBlock[] }) {
  return (
    <>
      {blocks.map((block, i) =>
        block.kind === 'html' ? (
          <div key={i} className={styles.prose} dangerouslySetInnerHTML={{ __html: block.html }} />
        ) : (
          <DocCode key={i} code={block.code} language={block.language} />
        ),
      )}
    </>
  );
}

/** The sidebar and the content. `current`: the slug of the page shown ('' for the index). */
export function DocsFrame({
  data,
  current,
  sections,
  children,
}: {
  data: DocsPageData;
  current: string;
  /** This page's sections, under its entry in the list. */
  sections?: readonly { text: string; href: string }[];
  children: ReactNode;
}) {
  return (
    <div className={styles.layout}>
      <div className={styles.sidebar}>
        <DocsSearch entries={data.search} />
        <nav aria-label="Documentation">
          <h2 className={styles.navTitle}>Docs</h2>
          <ul className={styles.navList}>
            <li>
              <a className={styles.navLink} href="/docs" aria-current={current === '' ? 'page' : undefined}>
                Overview
              </a>
            </li>
            {data.nav.map((item) => (
              <li key={item.slug}>
                <a className={styles.navLink} href={`/docs/${item.slug}`} aria-current={current === item.slug ? 'page' : undefined}>
                  {item.title}
                </a>
                {current === item.slug && sections?.length ? (
                  <ul className={styles.subList} aria-label={`${item.title}: sections`}>
                    {sections.map((s) => (
                      <li key={s.href}>
                        <a className={styles.navSub} href={s.href}>
                          {s.text}
                        </a>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className={styles.content}>{children}</div>
    </div>
  );
}

/** The server could not make the page (it logged why). */
export function DocsUnavailable() {
  return (
    <div className={styles.layout}>
      <div className={styles.content}>
        <h1>Documentation</h1>
        <p>The documentation could not be loaded. Reload the page to try again.</p>
      </div>
    </div>
  );
}
