import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CONTAINER_RUNTIME_DEFAULTS, type HealthCheck } from '@limelight/widgets/api';
import { DEFAULT_EXECUTION_MS, DEFAULT_REQUESTS_PER_HOUR, formatMonthlyCost, monthlyCostUsd } from '@limelight/widgets/pricing';
import { distinctGpuOffers, gpuOfferLabel, HEALTH_TEXT } from './deploymentModel';
import { DeploymentStatus } from './DeploymentStatus';
import { RadioGroup, SelectField, TextField } from './fields';
import { withRuntime, type RuntimeDraft, type RuntimeKind } from './serviceDraft';
import type { ServiceEditor } from './useServiceEditor';
import * as page from '../page.css';
import * as styles from './publish.css';

// How the service runs (docs/publishing.md): at the developer's own URL (the HTTP runtime) or as
// a container deployment, which waits for a GPU runner on a machine without a fleet.

function HealthReport({ health }: { health: HealthCheck }) {
  return (
    <p className={`${styles.message} ${health.status === 'ok' ? styles.success : styles.failure}`} data-testid="health">
      <strong>{HEALTH_TEXT[health.status]}</strong>
      {health.latency_ms !== null && <> · {Math.round(health.latency_ms)} ms</>} · {health.detail} ·{' '}
      <time dateTime={health.checked_at}>{new Date(health.checked_at).toLocaleString()}</time>
    </p>
  );
}

/**
 * The path "Check health" asks under the service's address (issue 39: it asked GET /, which most
 * APIs answer 404); for a container it is also the readiness gate. Empty: the OpenAPI document.
 */
function HealthPathField({ editor, hint }: { editor: ServiceEditor; hint: string }) {
  const { draft, setDraft, errors } = editor;
  return (
    <TextField
      label="Health path"
      value={draft.runtime.healthPath}
      onChange={(healthPath) => setDraft((d) => withRuntime(d, { healthPath }))}
      placeholder={CONTAINER_RUNTIME_DEFAULTS.health_path}
      hint={hint}
      error={errors['runtime.health_path']}
    />
  );
}

function HttpRuntime({ editor }: { editor: ServiceEditor }) {
  const { draft, setDraft, errors } = editor;
  const runtime = draft.runtime;
  const change = (patch: Partial<RuntimeDraft>) => setDraft((d) => withRuntime(d, patch));
  const setHeader = (index: number, patch: Partial<RuntimeDraft['headers'][number]>) =>
    change({ headers: runtime.headers.map((h, i) => (i === index ? { ...h, ...patch } : h)) });
  return (
    <>
      <TextField
        label="Base URL"
        type="url"
        required
        value={runtime.baseUrl}
        onChange={(baseUrl) => change({ baseUrl })}
        placeholder="https://my-service.example.com"
        hint="Runs call this address plus the endpoint's path."
        error={errors['runtime.base_url']}
      />
      <HealthPathField
        editor={editor}
        hint={`"Check health" asks GET of the base URL plus this path; empty: ${CONTAINER_RUNTIME_DEFAULTS.health_path}, your OpenAPI document.`}
      />
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Secret headers</legend>
        <p className={styles.hint}>
          Sent with every call, e.g. a shared token your service checks. Stored encrypted and never shown again.
          {runtime.storedHeaderNames.length > 0 && (
            <> Stored now: {runtime.storedHeaderNames.join(', ')} (kept unless you enter new headers).</>
          )}
        </p>
        {runtime.headers.map((header, i) => (
          <div key={i} className={styles.grid}>
            <TextField
              label={`Header ${i + 1} name`}
              value={header.name}
              onChange={(name) => setHeader(i, { name })}
              error={errors[`runtime.headers.${i}`]}
            />
            <TextField
              label={`Header ${i + 1} value`}
              type="password"
              autoComplete="off"
              value={header.value}
              onChange={(value) => setHeader(i, { value })}
            />
          </div>
        ))}
        <div>
          <button
            type="button"
            className={page.button({ tone: 'outline' })}
            onClick={() => change({ headers: [...runtime.headers, { name: '', value: '' }] })}
          >
            Add a header
          </button>
        </div>
      </fieldset>
    </>
  );
}

/**
 * runtime.snapshot (docs/deploy.md, "Snapshot cold starts"): shown whatever the runner, since the
 * setting is saved with the service and applies wherever a runner has snapshots on.
 */
export function SnapshotField({ editor }: { editor: Pick<ServiceEditor, 'draft' | 'setDraft' | 'errors'> }) {
  const { draft, setDraft, errors } = editor;
  const noteId = useId();
  const error = errors['runtime.snapshot'];
  return (
    <div>
      <label className={styles.choice}>
        <input
          type="checkbox"
          className={styles.choiceInput}
          checked={draft.runtime.snapshot}
          onChange={(e) => setDraft((d) => withRuntime(d, { snapshot: e.target.checked }))}
          aria-describedby={noteId}
          aria-invalid={error ? true : undefined}
        />
        Restore from a memory snapshot
      </label>
      <p id={noteId} className={styles.hint}>
        Applies on runners with snapshots on: a start from zero restores the service as its setup left it. Clear it for code that cannot be
        snapshotted; every start is then cold.
      </p>
      {error && <p className={styles.error}>{error}</p>}
    </div>
  );
}

function ContainerRuntime({ editor }: { editor: ServiceEditor }) {
  const { draft, setDraft, errors, reference } = editor;
  const runtime = draft.runtime;
  const change = (patch: Partial<RuntimeDraft>) => setDraft((d) => withRuntime(d, patch));
  const [requestsPerHour, setRequestsPerHour] = useState(String(DEFAULT_REQUESTS_PER_HOUR));
  const [executionMs, setExecutionMs] = useState(String(DEFAULT_EXECUTION_MS));
  const gpu = reference.gpus.find((g) => g.id === runtime.gpu);
  const estimate = gpu
    ? monthlyCostUsd({
        requestsPerHour: Number(requestsPerHour),
        executionMs: Number(executionMs),
        pricePerSecondUsd: gpu.customer_price_per_s_usd,
      })
    : null;
  return (
    <>
      <TextField
        label="Image"
        required
        value={runtime.image}
        onChange={(image) => change({ image })}
        placeholder="docker.io/me/sketch:1.2"
        error={errors['runtime.image']}
      />
      <div className={styles.grid}>
        <SelectField
          label="Registry credential"
          value={runtime.registryCredentialId}
          onChange={(registryCredentialId) => change({ registryCredentialId })}
          options={[
            { value: '', label: 'None (public image)' },
            ...reference.credentials.map((c) => ({
              value: c.id,
              label: `${c.credential_alias || c.foreign_username} · ${c.registry || 'docker.io'} (${c.foreign_username})`,
            })),
          ]}
          hint={<Link to="/account/profile">Add a registry credential (Docker Hub or any registry) in your profile.</Link>}
          error={errors['runtime.registry_credential_id']}
        />
        <SelectField
          label="GPU"
          value={runtime.gpu}
          onChange={(g) => change({ gpu: g })}
          options={[
            { value: '', label: 'Choose a GPU' },
            ...distinctGpuOffers(reference.gpus).map((g) => ({ value: g.id, label: gpuOfferLabel(g) })),
          ]}
          error={errors['runtime.gpu']}
        />
        <TextField
          label="Minimum instances"
          inputMode="numeric"
          value={runtime.minInstances}
          onChange={(minInstances) => change({ minInstances })}
          error={errors['runtime.min_instances']}
        />
        <TextField
          label="Maximum instances"
          inputMode="numeric"
          value={runtime.maxInstances}
          onChange={(maxInstances) => change({ maxInstances })}
          error={errors['runtime.max_instances']}
        />
        <TextField
          label="Idle timeout (s)"
          inputMode="numeric"
          value={runtime.idleTimeoutS}
          onChange={(idleTimeoutS) => change({ idleTimeoutS })}
          error={errors['runtime.idle_timeout_s']}
        />
      </div>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Resources per instance</legend>
        <p className={styles.hint}>
          What one instance may use; the runner reserves its memory. The GPU above sets the price only: ask for a GPU here when the service
          needs one. Empty: 1 CPU, 1024 MB, no GPU.
        </p>
        <div className={styles.grid}>
          <TextField
            label="CPUs"
            inputMode="decimal"
            value={runtime.cpu}
            onChange={(cpu) => change({ cpu })}
            placeholder="1"
            error={errors['runtime.resources.cpu']}
          />
          <TextField
            label="Memory (MB)"
            inputMode="numeric"
            value={runtime.memoryMb}
            onChange={(memoryMb) => change({ memoryMb })}
            placeholder="1024"
            error={errors['runtime.resources.memory_mb'] ?? errors['runtime.resources']}
          />
          <TextField
            label="GPUs needed"
            inputMode="numeric"
            value={runtime.gpus}
            onChange={(gpus) => change({ gpus })}
            placeholder="0"
            error={errors['runtime.resources.gpu']}
          />
        </div>
      </fieldset>
      <SnapshotField editor={editor} />
      <HealthPathField
        editor={editor}
        hint={`An instance takes runs once GET of this path answers 2xx; empty: ${CONTAINER_RUNTIME_DEFAULTS.health_path}.`}
      />
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Monthly estimate</legend>
        <div className={styles.grid}>
          <TextField label="Requests per hour" inputMode="numeric" value={requestsPerHour} onChange={setRequestsPerHour} />
          <TextField label="Execution time (ms)" inputMode="numeric" value={executionMs} onChange={setExecutionMs} />
        </div>
        <p aria-live="polite" data-testid="monthly-estimate">
          {estimate === null ? (
            'Choose a GPU and enter numbers to see the estimate.'
          ) : (
            <>
              About {formatMonthlyCost(estimate)} a month on {gpu!.display_name}.
            </>
          )}
        </p>
        <p className={styles.hint}>Requests per hour × 24 × 30 × execution time × the GPU's price per second, as on the pricing page.</p>
      </fieldset>
    </>
  );
}

const KINDS: ReadonlyArray<{ value: RuntimeKind; label: string }> = [
  { value: 'http', label: 'My own URL' },
  { value: 'container', label: 'Container image' },
];

export function RuntimeSection({ editor }: { editor: ServiceEditor }) {
  const { draft, setDraft, saved, health, busy, dirty } = editor;
  const kind = draft.runtime.kind;
  return (
    <>
      {kind === 'local-demo' ? (
        <p className={styles.hint}>This service runs on the platform's built-in demo runtime. Choose another runtime to replace it.</p>
      ) : null}
      <RadioGroup
        label="Runtime"
        name="runtime-kind"
        value={kind}
        onChange={(next) => setDraft((d) => withRuntime(d, { kind: next }))}
        options={KINDS}
      />
      {kind === 'http' && <HttpRuntime editor={editor} />}
      {kind === 'container' && (
        <>
          <p className={styles.hint}>
            The image serves HTTP on port 8080 with GET /openapi.json; its endpoints are imported from it once the first instance is
            healthy. Saving deploys it on the server's container runner; the status, timings and logs below follow it live.
          </p>
          <ContainerRuntime editor={editor} />
          {saved?.runtime.type === 'container' && <DeploymentStatus serviceId={saved.id} name={saved.display_name} />}
        </>
      )}
      <div className={styles.row}>
        <button
          type="button"
          className={page.button({ tone: 'outline' })}
          disabled={!saved || busy !== null}
          onClick={() => void editor.checkHealth()}
        >
          Check health
        </button>
        {(!saved || dirty) && (
          <span className={styles.hint}>
            The check uses the saved runtime{saved ? '; save your changes first' : '; save the service first'}.
          </span>
        )}
      </div>
      {health && <HealthReport health={health} />}
    </>
  );
}
