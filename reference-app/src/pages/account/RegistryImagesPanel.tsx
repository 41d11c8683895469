import { useCallback, useId, useState } from 'react';
import { useApiResource } from '@limelight/widgets';
import { notify } from '@limelight/widgets/notifications';
import { visuallyHidden } from '@limelight/widgets/theme/a11y.css';
import { ConfirmDialog } from '../publish/ConfirmDialog';
import type { RegistryImage, RegistryImagesClient } from './registryImages';
import * as page from '../page.css';
import * as styles from './account.css';

// Account → Hosting → Your images (docs/publishing.md, "Your images"): what the account holds in
// the platform's registry, how much of the plan's storage that is, and a Delete per image (with
// its tags) behind a confirmation. An image a service is saved with cannot be deleted: its
// button is disabled and says which service. Without a registry (hosting off) nothing is shown.

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
const when = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

interface Target {
  name: string;
  image: RegistryImage;
}

const labelOf = ({ name, image }: Target) =>
  image.tags.length > 0 ? `${name}:${image.tags.join(', ')}` : `${name}@${image.digest.slice(7, 19)}`;

function ImageRow({ target, busy, onDelete }: { target: Target; busy: boolean; onDelete: () => void }) {
  const reasonId = useId();
  const { name, image } = target;
  const label = labelOf(target);
  const usedBy = image.used_by.map((s) => s.name).join(', ');
  return (
    <tr>
      <th className={`${page.td} ${styles.rowHeader}`} scope="row">
        {name}
      </th>
      <td className={page.td}>{image.tags.length > 0 ? image.tags.join(', ') : <span className={page.muted}>untagged</span>}</td>
      <td className={page.td}>
        <code title={image.digest}>{image.digest.slice(0, 19)}</code>
      </td>
      <td className={page.td}>{mb(image.size_bytes)}</td>
      <td className={page.td}>
        <time dateTime={image.pushed_at}>{when(image.pushed_at)}</time>
      </td>
      <td className={page.td}>{usedBy ? <span id={reasonId}>Used by {usedBy}</span> : <span className={page.muted}>Not used</span>}</td>
      <td className={page.td}>
        <button
          type="button"
          className={page.button({ tone: 'danger' })}
          disabled={busy || usedBy !== ''}
          aria-describedby={usedBy ? reasonId : undefined}
          onClick={onDelete}
          aria-label={`Delete ${label}`}
        >
          Delete
        </button>
      </td>
    </tr>
  );
}

export function RegistryImagesPanel({ client }: { client: RegistryImagesClient }) {
  const [noRegistry, setNoRegistry] = useState(false);
  const images = useApiResource(
    useCallback(async () => {
      const result = await client.list();
      setNoRegistry(!result.ok && result.status === 404);
      return result;
    }, [client]),
  );
  const [deleting, setDeleting] = useState<Target | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const data = images.data;
  // 404: this platform runs no registry; the section is not shown at all.
  if (noRegistry) return null;
  const rows = data?.repositories.flatMap((r) => r.images.map((image) => ({ name: r.name, image }))) ?? [];

  const remove = async (target: Target) => {
    setPending(target.image.digest);
    const result = await client.remove(target.name, target.image.digest);
    setPending(null);
    if (!result.ok) return notify.warning(result.error);
    notify.success(`${labelOf(target)} is deleted; its space is freed within a minute.`);
    void images.reload();
  };

  return (
    <section className={styles.panel} aria-labelledby="images-title" aria-busy={images.loading}>
      <h2 id="images-title" className={styles.panelTitle}>
        Your images
      </h2>
      {!data && images.status !== 'error' && <p role="status">Loading your images…</p>}
      {!data && images.status === 'error' && <p role="alert">Your images could not be loaded; reload the page to try again.</p>}
      {data && (
        <p className={page.muted} data-testid="registry-usage">
          {`${data.host}/${data.namespace}: ${mb(data.used_bytes)} of ${mb(data.quota_bytes)} used (${data.plan} plan).`}
          {data.garbage_collection.pending && ' The space of deleted images is being freed.'}
        </p>
      )}
      {data && rows.length === 0 && (
        <p className={page.muted}>
          No images in the platform&apos;s registry. <code>limelight push</code> puts one there.
        </p>
      )}
      {rows.length > 0 && (
        <div className={styles.tableScroll}>
          <table className={page.table}>
            <caption className={visuallyHidden}>Your images in the platform&apos;s registry</caption>
            <thead>
              <tr>
                {['Image', 'Tags', 'Digest', 'Size', 'Pushed', 'Services'].map((h) => (
                  <th key={h} className={page.th} scope="col">
                    {h}
                  </th>
                ))}
                <th className={page.th} scope="col">
                  <span className={visuallyHidden}>Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((target) => (
                <ImageRow
                  key={`${target.name}@${target.image.digest}`}
                  target={target}
                  busy={pending === target.image.digest}
                  onDelete={() => setDeleting(target)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ? labelOf(deleting) : 'the image'}?`}
        text={`The image${deleting?.image.tags.length ? ' and its tags' : ''} leave the registry and its space is freed within a minute. This cannot be undone.`}
        cancelLabel="Keep it"
        confirmLabel="Delete the image"
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (target) void remove(target);
        }}
      />
    </section>
  );
}
