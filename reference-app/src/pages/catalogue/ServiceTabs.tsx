import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import * as styles from './serviceTabs.css';

export interface TabDefinition<K extends string> {
  key: K;
  label: string;
  panel: ReactNode;
}

/**
 * Tabs after the WAI-ARIA tabs pattern: one tab stop (roving tabindex), Left/Right and Home/End
 * move and select (automatic activation), each panel labelled by its tab. A panel mounts when its
 * tab is first selected, so a page loads only what its open tab needs (the API tab's code viewer,
 * for one: docs/deploy.md, "Lean first load"); from then on it stays mounted but hidden, so a run
 * in the Playground keeps going while the API tab is open.
 */
export function ServiceTabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: {
  label: string;
  tabs: readonly TabDefinition<K>[];
  selected: K;
  onSelect: (key: K) => void;
}) {
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const tabId = (key: K) => `${id}-tab-${key}`;
  const panelId = (key: K) => `${id}-panel-${key}`;
  const [opened, setOpened] = useState<ReadonlySet<K>>(() => new Set([selected]));
  if (!opened.has(selected)) setOpened(new Set(opened).add(selected));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.key === selected);
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : -1;
    if (next < 0) return;
    event.preventDefault();
    const key = tabs[next]!.key;
    onSelect(key);
    refs.current.get(key)?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} className={styles.tablist} onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              if (el) refs.current.set(t.key, el);
              else refs.current.delete(t.key);
            }}
            type="button"
            role="tab"
            id={tabId(t.key)}
            aria-selected={t.key === selected}
            aria-controls={panelId(t.key)}
            tabIndex={t.key === selected ? 0 : -1}
            className={styles.tab}
            onClick={() => onSelect(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div
          key={t.key}
          role="tabpanel"
          id={panelId(t.key)}
          aria-labelledby={tabId(t.key)}
          tabIndex={0}
          hidden={t.key !== selected}
          className={styles.panel}
        >
          {opened.has(t.key) || t.key === selected ? t.panel : null}
        </div>
      ))}
    </>
  );
}
