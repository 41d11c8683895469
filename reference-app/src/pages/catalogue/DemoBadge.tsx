import { useId, useState } from 'react';
import type { ModelDescriptor } from '@limelight/widgets/api';
import { useStrings } from '@limelight/widgets/platform';
import * as styles from './catalogue.css';

/**
 * The "Demo" badge of a service on the demo runtime (the catalogue's `demo`, decided by the
 * runtime that serves it: docs/jobs.md, metering), with its reason (`demo_reason`) in a tooltip
 * shown on hover and on keyboard focus and dismissed with Escape. On the service page the badge
 * is a button of its own, described by the tooltip; on a card, which is one link, the link is
 * described by it (`describedBy`) and shows it while focused, since a link holds no control.
 */
export function DemoBadge({ model, focusable, tipId }: { model: ModelDescriptor; focusable: boolean; tipId?: string }) {
  const label = useStrings().search.demo;
  const ownId = useId();
  const id = tipId ?? ownId;
  const [dismissed, setDismissed] = useState(false);
  if (!model.demo) return null;
  const tip = (
    <span role="tooltip" id={id} className={styles.demoTip} data-dismissed={dismissed || undefined}>
      {model.demo_reason ?? label}
    </span>
  );
  if (!focusable) {
    return (
      <span className={styles.demoBadge} data-demo="">
        {label}
        {tip}
      </span>
    );
  }
  return (
    <span className={styles.demoAnchor} onMouseLeave={() => setDismissed(false)}>
      <button
        type="button"
        className={styles.demoBadge}
        data-demo=""
        aria-describedby={id}
        onBlur={() => setDismissed(false)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setDismissed(true);
        }}
      >
        {label}
      </button>
      {tip}
    </span>
  );
}
