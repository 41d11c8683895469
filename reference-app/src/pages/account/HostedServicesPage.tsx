import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { usePlatformClients, type HostingInformation, type ModelDescriptor } from '@limelight/widgets/api';
import { useStrings } from '@limelight/widgets/platform';
import { useAccountResource } from './useAccountResource';
import * as page from '../page.css';
import * as styles from './account.css';

/** The signed-in user's own services (created_by = their id, newest first) and their hosting state. */
export default function HostedServicesPage() {
  const { modelManagement, profile } = usePlatformClients();
  const strings = useStrings().account;
  const loadProfile = useCallback(() => profile.profile(), [profile]);
  const loadModels = useCallback(() => modelManagement.modelDescriptors(), [modelManagement]);
  const me = useAccountResource(loadProfile, strings.loadProblem);
  const models = useAccountResource(loadModels, strings.loadProblem);
  const [hosting, setHosting] = useState<Record<string, HostingInformation>>({});

  const own: ModelDescriptor[] = (models.data ?? [])
    .filter((m) => me.data && m.created_by === me.data.id)
    .sort((a, b) => String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')));

  useEffect(() => {
    for (const model of own) {
      if (hosting[model.id]) continue;
      void modelManagement.modelHostingInformation({ model_id: model.id }).then((result) => {
        if (result?.ok) setHosting((h) => ({ ...h, [model.id]: result.data }));
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [own.length, modelManagement]);

  return (
    <div className={styles.page}>
      <h1>Hosting</h1>
      <section className={styles.panel} aria-labelledby="own-title">
        <h2 id="own-title" className={styles.panelTitle}>
          Your services
        </h2>
        {me.data && models.data && own.length === 0 && (
          <p className={page.muted}>
            You host no services yet. <Link to="/hosting">Learn how to deploy one.</Link>
          </p>
        )}
        {own.length > 0 && (
          <table className={page.table}>
            <thead>
              <tr>
                <th className={page.th} scope="col">
                  Service
                </th>
                <th className={page.th} scope="col">
                  Visibility
                </th>
                <th className={page.th} scope="col">
                  Status
                </th>
                <th className={page.th} scope="col">
                  GPU
                </th>
                <th className={page.th} scope="col">
                  Runs
                </th>
              </tr>
            </thead>
            <tbody>
              {own.map((m) => (
                <tr key={m.id}>
                  <td className={page.td}>
                    <Link to={`/APIs/edit/${encodeURIComponent(m.id)}`}>{m.display_name ?? m.id}</Link>
                  </td>
                  <td className={page.td}>{m.is_public === false ? 'Private' : 'Public'}</td>
                  <td className={page.td}>{hosting[m.id]?.status ?? '…'}</td>
                  <td className={page.td}>{hosting[m.id]?.gpu ?? '…'}</td>
                  <td className={page.td}>{(m.n_usages ?? 0).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
