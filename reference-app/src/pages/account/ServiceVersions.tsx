import { useCallback, useEffect, useId, useState } from 'react';
import { notify } from '@limelight/widgets/notifications';
import { visuallyHidden } from '@limelight/widgets/theme/a11y.css';
import { ConfirmDialog } from '../publish/ConfirmDialog';
import type { ServiceVersion, ServiceVersionsClient, VersionOutcome } from './serviceVersions';
import * as page from '../page.css';
import * as styles from './account.css';

// Account → Hosting → a container service's Versions (docs/publishing.md, "Versions and
// rollback"): every deploy with its digest, time, who and rollout outcome, the one serving now
// marked, and "Roll back to this version" on earlier ones behind a confirmation. After a rollback
// the list follows its rollout until it serves or fails, and says so in a live region.

const OUTCOME_TEXT: Record<VersionOutcome, string> = {
  pending: 'Waiting for the runner',
  in_progress: 'Rolling out',
  succeeded: 'Served',
  failed: 'Failed',
  superseded: 'Replaced before it served',
};
const ROLLING: VersionOutcome[] = ['pending', 'in_progress'];
/** How often the list is read again while a rollback rolls out. */
export const FOLLOW_INTERVAL_MS = 1500;

const short = (v: ServiceVersion) => (v.digest ? v.digest.slice(7, 19) : (v.image.split('/').pop() ?? v.image));
const when = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' });
const who = (v: ServiceVersion) => v.deployed_by?.email ?? (v.deployed_by ? 'a former member' : 'unknown');

function VersionRow({
  version,
  name,
  offer,
  busy,
  onRollback,
}: {
  version: ServiceVersion;
  name: string;
  /** Whether this version is one a rollback can go to (versions.ts on the server says the same). */
  offer: boolean;
  busy: boolean;
  onRollback: () => void;
}) {
  return (
    <tr>
      <th className={`${page.td} ${styles.rowHeader}`} scope="row">
        <code title={version.image}>{short(version)}</code>
        {version.kind === 'rollback' && <span className={page.muted}> (rollback)</span>}
      </th>
      <td className={page.td}>
        <time dateTime={version.deployed_at}>{when(version.deployed_at)}</time>
      </td>
      <td className={page.td}>{who(version)}</td>
      <td className={page.td}>
        {OUTCOME_TEXT[version.outcome]}
        {version.outcome === 'failed' && version.outcome_message ? `: ${version.outcome_message}` : ''}
      </td>
      <td className={page.td}>
        {version.current ? (
          <strong>Serving now</strong>
        ) : offer ? (
          <button
            type="button"
            className={page.button({ tone: 'outline' })}
            disabled={busy}
            onClick={onRollback}
            aria-label={`Roll back to this version: ${name} ${short(version)}`}
          >
            Roll back to this version
          </button>
        ) : null}
      </td>
    </tr>
  );
}

export function ServiceVersions({ client, serviceId, name }: { client: ServiceVersionsClient; serviceId: string; name: string }) {
  const titleId = useId();
  const [versions, setVersions] = useState<ServiceVersion[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [confirming, setConfirming] = useState<ServiceVersion | null>(null);
  /** The version a rollback recorded, followed until its rollout ends. */
  const [following, setFollowing] = useState<ServiceVersion | null>(null);
  const [status, setStatus] = useState('');

  /** The newest page (again, after a rollback: older pages shown before fold away). */
  const load = useCallback(async () => {
    const result = await client.list(serviceId);
    if (!result.ok) {
      setFailed(true);
      return null;
    }
    setFailed(false);
    setVersions(result.data.versions);
    setNextCursor(result.data.next_cursor);
    return result.data.versions;
  }, [client, serviceId]);

  useEffect(() => {
    void load();
  }, [load]);

  // While a rollback rolls out, read the list again until its outcome is known.
  useEffect(() => {
    if (!following) return;
    const timer = setInterval(() => {
      void load().then((fresh) => {
        const seen = fresh?.find((v) => v.id === following.id);
        if (!seen || ROLLING.includes(seen.outcome)) return;
        setFollowing(null);
        setStatus(
          seen.outcome === 'succeeded'
            ? `Rolled back: version ${short(seen)} serves ${name}.`
            : `The rollback to version ${short(seen)} did not serve: ${seen.outcome_message ?? OUTCOME_TEXT[seen.outcome]}. The previous version still serves.`,
        );
      });
    }, FOLLOW_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [following, load, name]);

  const more = async () => {
    if (!nextCursor) return;
    const result = await client.list(serviceId, nextCursor);
    if (!result.ok) return notify.warning(result.error);
    setVersions((shown) => [...(shown ?? []), ...result.data.versions.filter((v) => !shown?.some((s) => s.id === v.id))]);
    setNextCursor(result.data.next_cursor);
  };

  const rollback = async (version: ServiceVersion) => {
    setStatus(`Rolling ${name} back to version ${short(version)}…`);
    const result = await client.rollback(serviceId, version.digest!);
    if (!result.ok) {
      setStatus(`The rollback was refused: ${result.error}`);
      return;
    }
    setFollowing(result.data);
    await load();
  };

  const serving = versions?.find((v) => v.current);
  // What a rollback can go to: an earlier image named by digest, other than the one serving, once
  // (on its newest row: an image deployed twice is one choice).
  const offered = new Set<string>();
  const seen = new Set<string | null>([serving?.digest ?? null]);
  for (const v of versions ?? []) {
    if (v.digest && !seen.has(v.digest)) offered.add(v.id);
    seen.add(v.digest);
  }
  const newest = versions?.[0];
  // One rollout at a time: the buttons wait while the newest version still rolls out.
  const busy = following !== null || (newest !== undefined && ROLLING.includes(newest.outcome));
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.panelTitle}>
        Versions
      </h3>
      {!versions && !failed && <p role="status">Loading the versions…</p>}
      {failed && !versions && <p role="alert">The versions could not be loaded; reload the page to try again.</p>}
      {versions && versions.length === 0 && <p className={page.muted}>No versions yet: each deploy of an image records one.</p>}
      {versions && versions.length > 0 && (
        <div className={styles.tableScroll}>
          <table className={page.table}>
            <caption className={visuallyHidden}>Versions of {name}, newest first</caption>
            <thead>
              <tr>
                {['Version', 'Deployed', 'By', 'Outcome'].map((h) => (
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
              {versions.map((version) => (
                <VersionRow
                  key={version.id}
                  version={version}
                  name={name}
                  offer={offered.has(version.id)}
                  busy={busy}
                  onRollback={() => setConfirming(version)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor && (
        <button type="button" className={page.button({ tone: 'outline' })} onClick={() => void more()}>
          Show older versions
        </button>
      )}
      <p role="status" aria-live="polite" className={status ? undefined : visuallyHidden}>
        {status}
      </p>
      <ConfirmDialog
        open={confirming !== null}
        title={`Roll ${name} back to version ${confirming ? short(confirming) : ''}?`}
        text={
          confirming
            ? `${name} redeploys the image deployed ${when(confirming.deployed_at)} by ${who(confirming)}, with its current settings, as a push does. ` +
              'The version serving now keeps serving until this one is healthy.'
            : ''
        }
        cancelLabel="Cancel"
        confirmLabel="Roll back"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const version = confirming;
          setConfirming(null);
          if (version) void rollback(version);
        }}
      />
    </section>
  );
}
