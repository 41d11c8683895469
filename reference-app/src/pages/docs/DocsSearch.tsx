import { useId, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import Fuse from 'fuse.js/basic';
import type { SearchEntry } from '../../docs/types';
import * as styles from './docs.css';

/** At most this many results show. */
const MAX_RESULTS = 8;

/**
 * The docs search: every section of every docs page (its heading, page and the start of its
 * text) searched with fuse.js, the engine the catalogue's search uses; each result links to its
 * section's anchor. A labelled search field and a list of links, so Tab reaches the results and
 * the count is announced as it changes. It is a form that asks /docs?q=…, so without JavaScript
 * Enter still searches: the server renders the results of the address's `q` (the same search,
 * so the browser's first render matches it). With JavaScript, Enter opens the first result.
 */
export function DocsSearch({ entries }: { entries: readonly SearchEntry[] }) {
  const id = useId();
  const [params] = useSearchParams();
  const [query, setQuery] = useState(() => params.get('q') ?? '');
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
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (results[0]) window.location.assign(results[0].item.href);
  };

  return (
    <form role="search" className={styles.search} action="/docs" method="get" onSubmit={onSubmit}>
      <label htmlFor={id} className={styles.navTitle}>
        Search the docs
      </label>
      <input
        id={id}
        type="search"
        name="q"
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
    </form>
  );
}
