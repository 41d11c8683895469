import { useId, type SyntheticEvent } from 'react';
import { Link } from 'react-router';
import type { ModelCategory, ModelDescriptor } from '@limelight/widgets/api';
import { FALLBACK_IMAGE, descriptionPreview, displayName, formatRuns, resolveCategories, servicePath } from '@limelight/widgets/catalogue';
import { useStrings } from '@limelight/widgets/platform';
import { runBlocker, type RunBlocker } from '@limelight/widgets/run';
import { DemoBadge } from './DemoBadge';
import { ServicePicture } from './ServicePicture';
import * as styles from './catalogue.css';

export const showFallbackImage = (event: SyntheticEvent<HTMLImageElement>) => {
  if (event.currentTarget.src !== FALLBACK_IMAGE) event.currentTarget.src = FALLBACK_IMAGE;
};

/** Provider label: the platform's own services carry the brand name. */
export function providerLabel(provider: string | null | undefined, brand: string): string {
  if (!provider) return '';
  if (provider.toLowerCase() === 'limelight') return brand;
  return provider.charAt(0).toUpperCase() + provider.slice(1);
}

/** The badge of a service that cannot be run now, on its card and its page. */
export function blockerBadge(blocker: RunBlocker, s: { notRunnable: string; starting: string; notRunning: string }): string {
  return blocker === 'starting' ? s.starting : blocker === 'unavailable' ? s.notRunning : s.notRunnable;
}

/** A catalogue card: image, name, description, runs, provider and categories; links to the service page. */
export function ServiceCard({
  model,
  categories,
  brand,
  headingLevel = 2,
}: {
  model: ModelDescriptor;
  categories: readonly ModelCategory[];
  brand: string;
  headingLevel?: 2 | 3;
}) {
  const s = useStrings().search;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const cats = resolveCategories(model, categories);
  const blocker = runBlocker(model);
  // A demo's reason describes the card's link, and shows while it has focus (DemoBadge.tsx).
  const demoTipId = useId();
  return (
    <Link className={styles.card} to={`/APIs/service/${servicePath(model)}`} aria-describedby={model.demo ? demoTipId : undefined}>
      <ServicePicture model={model} className={styles.cardImage} lazy />
      <div className={styles.cardBody}>
        <Heading className={styles.cardTitle}>{displayName(model, s.unknownModel)}</Heading>
        <p className={styles.cardText}>{descriptionPreview(model, 140)}</p>
      </div>
      <div className={styles.cardMeta}>
        <DemoBadge model={model} focusable={false} tipId={demoTipId} />
        {blocker ? (
          <span className={styles.warningBadge} data-runnable="false" data-blocker={blocker}>
            {blockerBadge(blocker, s.service)}
          </span>
        ) : null}
        <span className={styles.badge}>{formatRuns(model.n_usages, s.runs)}</span>
        {model.provider ? <span className={styles.badge}>{providerLabel(model.provider, brand)}</span> : null}
        {cats.slice(0, 2).map((c) => (
          <span key={c.id} className={styles.badge}>
            {c.title}
          </span>
        ))}
      </div>
    </Link>
  );
}
