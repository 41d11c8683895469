import type { Db } from '../db/types';
import { insertVersion, selectNewestVersionImage } from './queries';

// Recording a container service's versions (docs/publishing.md, "Versions and rollback"), apart
// from versions.ts, which reads them and rolls back through the service update that records them.

/** How a version came: a save of the service (`limelight deploy`, the editor) or a rollback. */
export type VersionKind = 'deploy' | 'rollback';

const DIGEST_IN_IMAGE = /@(sha256:[0-9a-f]{64})$/;
/** The digest an image reference pins (`…@sha256:…`, what `limelight push` saves), or null for a tag. */
export const digestOf = (image: string): string | null => DIGEST_IN_IMAGE.exec(image)?.[1] ?? null;

/**
 * Records `image` as the service's newest version, unless it already is (a save that keeps the
 * image is no new version). Runs in the saving transaction before model_hosting's rollout is
 * written, so migration 021's trigger copies that rollout's state onto this row.
 */
export async function recordVersion(db: Db, serviceId: string, image: string, userId: string, kind: VersionKind): Promise<void> {
  if ((await selectNewestVersionImage(db, serviceId)) === image) return;
  await insertVersion(db, { model_id: serviceId, image, digest: digestOf(image), kind, deployed_by: userId });
}
