import { useState } from 'react';
import type { ModelDescriptor } from '@limelight/widgets/api';
import { displayName, isPlaceholderImage } from '@limelight/widgets/catalogue';
import * as styles from './catalogue.css';

/** Up to two letters naming the service: the first letters of its name's first two words. */
export function monogramOf(name: string): string {
  const words = (name.split('/').pop() ?? name).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}

/** A stable tone for a service, so its placeholder looks the same everywhere. */
const toneOf = (id: string) => ([...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % styles.MONOGRAM_TONES) as 0 | 1 | 2 | 3;

/**
 * A service's picture on catalogue cards and its page: its cover (the platform gives every service
 * one, docs/security.md "Covers"). Without one (missing, a placeholder, or one that fails to
 * load) it shows a neutral generated monogram; the product rules' "404" fallback image stays for
 * the header search's small thumbnails.
 */
export function ServicePicture({ model, className, lazy = false }: { model: ModelDescriptor; className: string; lazy?: boolean }) {
  const [failed, setFailed] = useState(false);
  const url = model.display_img_url;
  if (failed || isPlaceholderImage(url)) {
    return (
      <div className={`${className} ${styles.monogram({ tone: toneOf(model.id) })}`} aria-hidden="true" data-placeholder="monogram">
        {monogramOf(displayName(model, ''))}
      </div>
    );
  }
  return (
    <img
      className={className}
      src={url!.trim()}
      alt=""
      loading={lazy ? 'lazy' : undefined}
      decoding={lazy ? 'async' : undefined}
      // A service page's own picture is its largest paint (the delivery bench): fetched first.
      fetchPriority={lazy ? undefined : 'high'}
      onError={() => setFailed(true)}
      // A server-rendered picture that failed before hydration fired its error with no listener
      // yet: it is known by having finished with no pixels.
      ref={(img) => {
        if (img?.complete && img.naturalWidth === 0) setFailed(true);
      }}
    />
  );
}
