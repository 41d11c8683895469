import type { ReactNode } from 'react';
import * as styles from '../page.css';

/** A titled section whose body can be collapsed; the heading is the disclosure button. */
export function CollapsibleSection(props: { id: string; title: string; expanded: boolean; onToggle: () => void; children: ReactNode }) {
  const bodyId = `${props.id}-body`;
  return (
    <section id={props.id} className={styles.section} aria-labelledby={`${props.id}-title`} data-state={props.expanded ? 'open' : 'closed'}>
      <h2 id={`${props.id}-title`} className={styles.sectionTitle}>
        <button
          type="button"
          className={styles.disclosureButton}
          aria-expanded={props.expanded}
          aria-controls={bodyId}
          onClick={props.onToggle}
        >
          {props.title}
          <span aria-hidden="true">{props.expanded ? '−' : '+'}</span>
        </button>
      </h2>
      <div id={bodyId} hidden={!props.expanded}>
        {props.children}
      </div>
    </section>
  );
}
