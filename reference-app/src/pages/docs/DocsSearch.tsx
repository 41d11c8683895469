import { useId, useMemo, useState } from 'react';
import Fuse from 'fuse.js/basic';
import type { SearchEntry } from '../../docs/types';
import * as styles from './docs.css';

/** At most this many results show. */
const MAX_RESULTS = 8;

/**
 * The docs search: every section of every docs page (its heading, page and the start of its
 * text) searched with fuse.js, the engine the catalogue's search uses, in the browser; each
 * result links to its section's anchor. A labelled search field and a list of links, so Tab
 * reaches the results and the count is announced as it changes.
 */
export function DocsSearch({ entries }: { entries: readonly SearchEntry[] }) {
  const id = useId();
  const [query, setQuery] = useState('');
  const fuse = useMemo(
    () =>
      new Fuse(entries, {
        keys: [
          { name: 'title', weight: 3 },
          { name: 'text', weight: 1 },
          { name: 'page', weight: 0.5 },
        ],
        ignoreLocation: true,
        threshold: 0.25,
        minMatchCharLength: 2,
      }),
    [entries],
  );
  const term = query.trim();
  const results = term.length >= 2 ? fuse.search(term, { limit: MAX_RESULTS }) : [];

  return (
    <div role="search" className={styles.search}>
      <label htmlFor={id} className={styles.navTitle}>
        Search the docs
      </label>
      <input
        id={id}
        type="search"
        className={styles.searchInput}
        placeholder="Webhooks, API keys, streaming…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        autoComplete="off"
      />
      <p className={styles.status} role="status">
        {term.length >= 2 ? `${results.length === 0 ? 'No' : results.length} result${results.length === 1 ? '' : 's'}` : ''}
      </p>
      {results.length > 0 ? (
        <ul className={styles.searchResults} aria-label="Search results">
          {results.map(({ item }) => (
            <li key={item.href}>
              <a className={styles.searchResult} href={item.href}>
                <strong>{item.title}</strong>
                <span className={styles.muted}>{item.page}</span>
                {item.text ? <span className={styles.excerpt}>{item.text}</span> : null}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
