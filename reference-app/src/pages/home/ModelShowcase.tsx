import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { ModelDescriptor } from '@limelight/widgets/api';
import { descriptionPreview, displayName, formatRuns, modelImage, servicePath } from '@limelight/widgets/catalogue';
import { useStrings } from '@limelight/widgets/platform';
import { showFallbackImage } from '../catalogue/ServiceCard';
import { useCatalogueData } from '../catalogue/useCatalogueData';
import { FEATURED_DESCRIPTION_MAX, FEATURED_PLACEHOLDERS, MARQUEE_MIN_ITEMS, selectFeatured } from './featured';
import { INITIAL_CHIP, SHOWCASE_CHIPS, modelsForChip, toggleChip, type ChipKey } from './showcaseChips';
import * as styles from './ModelShowcase.css';

function FeaturedCard({ model, hidden }: { model: ModelDescriptor; hidden?: boolean }) {
  const s = useStrings().search;
  return (
    <li>
      <Link className={styles.card} to={`/APIs/service/${servicePath(model)}`} tabIndex={hidden ? -1 : undefined}>
        <img className={styles.image} src={modelImage(model)} alt="" loading="lazy" decoding="async" onError={showFallbackImage} />
        <h3 className={styles.name}>{displayName(model, s.unknownModel)}</h3>
        <p className={styles.text}>{descriptionPreview(model, FEATURED_DESCRIPTION_MAX)}</p>
        <span className={styles.badge}>{formatRuns(model.n_usages, s.runs)}</span>
      </Link>
    </li>
  );
}

/**
 * Home page model showcase (product-rules §2, §9): category chips in the spec's order (Generate images
 * selected at first, clicking toggles), featured models in a CSS-only marquee that pauses on
 * hover or focus and stands still for reduced motion, and the 'All models & Categories' link.
 */
export function ModelShowcase() {
  const s = useStrings().search.showcase;
  const data = useCatalogueData();
  const [chip, setChip] = useState<ChipKey | null>(INITIAL_CHIP);
  const featured = useMemo(
    () => selectFeatured(modelsForChip(data.models, data.categories, chip, chip ? s.chips[chip] : undefined)),
    [data.models, data.categories, chip, s.chips],
  );
  const loading = data.loading && data.models.length === 0;

  let body;
  if (loading) {
    body = (
      <ul className={styles.staticRow} aria-hidden="true">
        {Array.from({ length: FEATURED_PLACEHOLDERS }, (_, i) => (
          <li key={i} className={styles.placeholder} data-placeholder="" />
        ))}
      </ul>
    );
  } else if (featured.length === 0) {
    body = <p className={styles.empty}>{s.empty}</p>;
  } else if (featured.length < MARQUEE_MIN_ITEMS) {
    body = (
      <ul className={styles.staticRow} aria-label={s.featuredLabel} data-layout="static">
        {featured.map((m) => (
          <FeaturedCard key={m.id} model={m} />
        ))}
      </ul>
    );
  } else {
    body = (
      <div className={styles.viewport} data-layout="marquee">
        <div className={styles.track} data-count={featured.length}>
          <ul className={styles.group} aria-label={s.featuredLabel}>
            {featured.map((m) => (
              <FeaturedCard key={m.id} model={m} />
            ))}
          </ul>
          {/* The second copy only makes the loop seamless: hidden from assistive tech and focus. */}
          <ul className={styles.duplicate} aria-hidden="true" inert>
            {featured.map((m) => (
              <FeaturedCard key={m.id} model={m} hidden />
            ))}
          </ul>
        </div>
      </div>
    );
  }

  return (
    <div className={styles.root} aria-busy={loading || undefined}>
      <ul className={styles.chips} aria-label={s.chipsLabel}>
        {SHOWCASE_CHIPS.map(({ key }) => (
          <li key={key}>
            <button type="button" className={styles.chip} aria-pressed={chip === key} onClick={() => setChip((c) => toggleChip(c, key))}>
              {s.chips[key]}
            </button>
          </li>
        ))}
      </ul>
      {loading ? (
        <span role="status" className={styles.empty}>
          {s.loading}
        </span>
      ) : null}
      {body}
      <div className={styles.actions}>
        <Link className={styles.allButton} to="/APIs/overview">
          {s.allModels}
        </Link>
      </div>
    </div>
  );
}
