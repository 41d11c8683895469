import { useMemo } from 'react';
import { usePlatform } from '@limelight/widgets/platform';
import { ServiceCard } from '../catalogue/ServiceCard';
import { ServiceHeader } from '../catalogue/ServiceView';
import { previewOf } from './serviceDraft';
import type { ServiceEditor } from './useServiceEditor';
import * as styles from './publish.css';

/**
 * The draft as the catalogue will show it: its card and the top of its page, updated as the
 * owner types. Inert, so its links cannot leave the editor.
 */
export function ServicePreview({ editor }: { editor: ServiceEditor }) {
  const { brand } = usePlatform();
  const { draft, saved, reference, pendingImage } = editor;
  const pendingUrl = useMemo(() => (pendingImage ? URL.createObjectURL(pendingImage) : null), [pendingImage]);
  const model = useMemo(() => {
    const preview = previewOf(draft, saved, reference.ownerName);
    return pendingUrl ? { ...preview, display_img_url: pendingUrl } : preview;
  }, [draft, saved, reference.ownerName, pendingUrl]);
  return (
    <aside className={styles.preview} aria-labelledby="preview-title">
      <h2 id="preview-title" className={styles.sectionTitle}>
        Preview
      </h2>
      <div inert data-testid="card-preview">
        <ServiceCard model={model} categories={reference.categories} brand={brand} headingLevel={3} />
      </div>
      <div inert className={styles.section} data-testid="page-preview">
        <ServiceHeader model={model} categories={reference.categories} headingLevel={3} stacked />
      </div>
    </aside>
  );
}
