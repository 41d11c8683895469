import { useEffect, useMemo, useState } from 'react';
import type { ApiKey, ServiceEndpoint } from '@limelight/widgets/api';
import { usePlatformClients } from '@limelight/widgets';
import { useSession } from '@limelight/widgets/auth';
import { CodeViewer } from '@limelight/widgets/code-viewer';
import { formatString, usePlatform } from '@limelight/widgets/platform';
import { codeSamples, exampleInput, serviceOpenApiUrl } from '@limelight/widgets/headless/service-runner';
import * as page from '../page.css';
import * as styles from './serviceTabs.css';

type KeyState = { status: 'idle' } | { status: 'creating' } | { status: 'created'; secret: string } | { status: 'failed'; message: string };

/**
 * The API tab: cURL and the Python and JavaScript SDKs running this endpoint, with the input of
 * the last playground run (or an example), a link to the service's OpenAPI document, and an
 * API key: a new one created here
 * is written into the samples (the only time its secret is visible); otherwise they read
 * LIMELIGHT_API_KEY from the environment.
 */
export function ServiceApiTab({
  serviceId,
  endpoints,
  lastInput,
}: {
  serviceId: string;
  endpoints: readonly ServiceEndpoint[];
  lastInput: { endpoint: string; input: Record<string, unknown> } | null;
}) {
  const { apiUrl, strings } = usePlatform();
  const s = strings.runner.page;
  const clients = usePlatformClients();
  const signedIn = useSession((state) => state.isLoggedIn === true);
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [key, setKey] = useState<KeyState>({ status: 'idle' });
  const runnable = endpoints.filter((e) => e.method === 'POST');
  const endpoint = runnable.find((e) => e.path === lastInput?.endpoint) ?? runnable[0];

  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void clients.profile.apiKeys().then((result) => {
      if (live && result.ok) setKeys(result.data);
    });
    return () => {
      live = false;
    };
  }, [signedIn, clients]);

  const samples = useMemo(() => {
    if (!endpoint) return null;
    const input = lastInput && lastInput.endpoint === endpoint.path ? lastInput.input : exampleInput(endpoint);
    return codeSamples({
      apiUrl,
      serviceId,
      endpoint: endpoint.path,
      input,
      apiKey: key.status === 'created' ? key.secret : null,
    });
  }, [apiUrl, serviceId, endpoint, lastInput, key]);

  if (!endpoint || !samples) return <p>{strings.runner.errors.noEndpoints}</p>;

  async function createKey() {
    setKey({ status: 'creating' });
    const result = await clients.profile.createApiKey();
    if (result.ok) {
      setKey({ status: 'created', secret: result.data.secret });
      setKeys((list) => [result.data, ...list]);
    } else setKey({ status: 'failed', message: result.error });
  }

  return (
    <div className={styles.apiPanel}>
      <p>{s.apiIntro}</p>
      <p>
        <a href={serviceOpenApiUrl(apiUrl, serviceId)}>{s.openApi}</a> <span className={styles.muted}>{s.openApiHint}</span>
      </p>
      <section className={`${page.card} ${styles.apiKeyBox}`} aria-label={s.apiKeyTitle}>
        <h3 className={styles.sampleTitle}>{s.apiKeyTitle}</h3>
        {key.status === 'created' ? (
          <p role="status">{s.apiKeyCreated}</p>
        ) : (
          <p className={styles.muted}>
            {keys.length > 0 ? formatString(s.apiKeyExisting, { keys: keys.map((k) => k.display_value).join(', ') }) : s.apiKeyPlaceholder}
          </p>
        )}
        {key.status === 'failed' ? <p role="alert">{formatString(s.apiKeyFailed, { message: key.message })}</p> : null}
        {signedIn ? (
          key.status !== 'created' ? (
            <button
              type="button"
              className={page.button({ tone: 'primary' })}
              disabled={key.status === 'creating'}
              onClick={() => void createKey()}
            >
              {key.status === 'creating' ? s.apiKeyCreating : s.apiKeyCreate}
            </button>
          ) : null
        ) : (
          <p className={styles.muted}>{s.apiKeySignIn}</p>
        )}
      </section>
      {lastInput && lastInput.endpoint === endpoint.path ? <p className={styles.muted}>{s.usesPlaygroundInput}</p> : null}
      <h3 className={styles.sampleTitle}>{s.curl}</h3>
      <CodeViewer code={samples.curl} language="bash" label={s.curl} />
      <h3 className={styles.sampleTitle}>{s.python}</h3>
      <CodeViewer code={samples.python} language="python" label={s.python} />
      <h3 className={styles.sampleTitle}>{s.javascript}</h3>
      <CodeViewer code={samples.javascript} language="javascript" label={s.javascript} />
    </div>
  );
}
