import { useId, useState } from 'react';
import { OUTPUT_TYPES, type OutputType } from '@limelight/widgets/api';
import { SelectField, TextField } from './fields';
import {
  PARAMETER_TYPES,
  addEndpoint,
  addParameter,
  removeEndpoint,
  removeParameter,
  withEndpoint,
  withParameter,
  type EndpointDraft,
  type ParameterDraft,
  type ParameterType,
} from './serviceDraft';
import type { ServiceEditor } from './useServiceEditor';
import * as page from '../page.css';
import * as styles from './publish.css';

// Endpoints of the service editor: import them from an OpenAPI document (docs/publishing.md,
// "Endpoint import"), then change, add or remove endpoints and parameters by hand.

const METHODS = [
  { value: 'POST', label: 'POST' },
  { value: 'GET', label: 'GET' },
] as const;
const OUTPUTS = OUTPUT_TYPES.map((t) => ({ value: t, label: t }));
const TYPES = PARAMETER_TYPES.map((t) => ({ value: t, label: t }));

/** Where the import reads by default: the service's own /openapi.json beside its base URL. */
export const defaultDocumentUrl = (baseUrl: string) => (baseUrl.trim() ? `${baseUrl.trim().replace(/\/+$/, '')}/openapi.json` : '');

/** Why "Import endpoints" cannot run yet, or undefined when it can (busy aside). */
export function importBlockedReason(url: string, fallback: string): string | undefined {
  // The Runtime section, where the base URL is given, comes after Endpoints (EditServicePage.tsx).
  return url.trim() || fallback
    ? undefined
    : "Give the service's base URL in Runtime below (its /openapi.json is read) or a document URL to import from.";
}

/** The import of the editor's endpoints: from a URL (default beside the base URL) or a pasted document. */
export function ImportForm({ editor }: { editor: Pick<ServiceEditor, 'draft' | 'busy' | 'importReport' | 'importEndpoints'> }) {
  const [url, setUrl] = useState('');
  const reasonId = useId();
  const [pasted, setPasted] = useState('');
  const [pasteError, setPasteError] = useState<string | undefined>();
  const fallback = editor.draft.runtime.kind === 'http' ? defaultDocumentUrl(editor.draft.runtime.baseUrl) : '';
  const report = editor.importReport;
  const blocked = importBlockedReason(url, fallback);
  const importPasted = () => {
    try {
      setPasteError(undefined);
      void editor.importEndpoints({ document: JSON.parse(pasted) as unknown });
    } catch {
      setPasteError('This is not JSON. Paste the OpenAPI document as JSON (FastAPI serves it at /openapi.json).');
    }
  };
  return (
    <div className={styles.fieldset}>
      <div className={styles.row}>
        <div className={styles.grow}>
          <TextField
            label="OpenAPI document URL"
            type="url"
            value={url}
            onChange={setUrl}
            placeholder={fallback || 'https://my-service.example.com/openapi.json'}
            hint="Most Python frameworks (FastAPI, for one) serve it at /openapi.json. Empty: the one beside the base URL."
          />
        </div>
        <button
          type="button"
          className={page.button({ tone: 'outline' })}
          disabled={editor.busy !== null || blocked !== undefined}
          aria-describedby={blocked ? reasonId : undefined}
          onClick={() => void editor.importEndpoints({ url: url.trim() || fallback })}
        >
          Import endpoints
        </button>
      </div>
      {blocked && (
        <p id={reasonId} className={styles.hint}>
          {blocked}
        </p>
      )}
      <details>
        <summary>Paste a document instead</summary>
        <TextField label="OpenAPI document (JSON)" multiline value={pasted} onChange={setPasted} error={pasteError} />
        <button
          type="button"
          className={page.button({ tone: 'outline' })}
          disabled={editor.busy !== null || !pasted.trim()}
          onClick={importPasted}
        >
          Import pasted document
        </button>
      </details>
      {report && (
        <div role="status">
          <p className={styles.hint}>
            Imported {report.imported} endpoint{report.imported === 1 ? '' : 's'}; review them below and save to keep them.
          </p>
          {report.unsupported.length > 0 && (
            <>
              <p className={styles.hint}>Not imported ({report.unsupported.length}):</p>
              <ul className={styles.list}>
                {report.unsupported.map((u) => (
                  <li key={u}>{u}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}

interface ParameterProps {
  parameter: ParameterDraft;
  field: string;
  errors: Record<string, string>;
  onChange: (patch: Partial<ParameterDraft>) => void;
  onRemove: () => void;
}

function ParameterEditor({ parameter, field, errors, onChange, onRemove }: ParameterProps) {
  const numeric = parameter.type === 'integer' || parameter.type === 'number';
  const title = parameter.name || 'new parameter';
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>Parameter {title}</legend>
      <div className={styles.grid}>
        <TextField label="Name" value={parameter.name} onChange={(name) => onChange({ name })} error={errors[`${field}.name`]} />
        <SelectField<ParameterType> label="Type" value={parameter.type} onChange={(type) => onChange({ type })} options={TYPES} />
        <TextField
          label="Default"
          value={parameter.default}
          onChange={(v) => onChange({ default: v })}
          error={errors[`${field}.default`]}
        />
        {numeric && (
          <>
            <TextField
              label="Minimum"
              inputMode="decimal"
              value={parameter.minimum}
              onChange={(minimum) => onChange({ minimum })}
              error={errors[`${field}.minimum`]}
            />
            <TextField
              label="Maximum"
              inputMode="decimal"
              value={parameter.maximum}
              onChange={(maximum) => onChange({ maximum })}
              error={errors[`${field}.maximum`]}
            />
          </>
        )}
        <TextField
          label="Allowed values"
          hint="Comma-separated; empty allows any."
          value={parameter.enum}
          onChange={(v) => onChange({ enum: v })}
          error={errors[`${field}.enum`]}
        />
      </div>
      <TextField label="Description" value={parameter.description} onChange={(description) => onChange({ description })} />
      <div className={styles.row}>
        <label className={styles.choice}>
          <input
            type="checkbox"
            className={styles.choiceInput}
            checked={parameter.required}
            onChange={(e) => onChange({ required: e.target.checked })}
          />
          Required
        </label>
        <button type="button" className={page.button({ tone: 'outline' })} onClick={onRemove}>
          Remove parameter {title}
        </button>
      </div>
    </fieldset>
  );
}

function EndpointEditor({ editor, endpoint, index }: { editor: ServiceEditor; endpoint: EndpointDraft; index: number }) {
  const { setDraft, errors } = editor;
  const field = `endpoints.${index}`;
  const change = (patch: Partial<EndpointDraft>) => setDraft((d) => withEndpoint(d, index, patch));
  const name = `${endpoint.method} ${endpoint.path}`;
  return (
    <fieldset className={styles.fieldset} data-testid="endpoint">
      <legend className={styles.legend}>
        Endpoint <span className={styles.method}>{name}</span>
      </legend>
      <div className={styles.grid}>
        <SelectField label="Method" value={endpoint.method} onChange={(method) => change({ method })} options={METHODS} />
        <TextField label="Path" value={endpoint.path} onChange={(path) => change({ path })} error={errors[`${field}.path`]} />
        <SelectField<OutputType>
          label="Output"
          value={endpoint.output?.type ?? 'json'}
          onChange={(type) => change({ output: { ...endpoint.output, type } })}
          options={OUTPUTS}
        />
        <TextField
          label="Time limit (s)"
          inputMode="numeric"
          value={endpoint.time_limit_s === undefined ? '' : String(endpoint.time_limit_s)}
          onChange={(v) => change({ time_limit_s: v.trim() === '' || !Number.isFinite(Number(v)) ? undefined : Number(v) })}
          hint="Empty: 120 s."
          error={errors[`${field}.time_limit_s`]}
        />
      </div>
      <TextField label="Description" value={endpoint.description ?? ''} onChange={(description) => change({ description })} />
      {endpoint.parameters.map((p, j) => (
        <ParameterEditor
          key={j}
          parameter={p}
          field={`${field}.parameters.${j}`}
          errors={errors}
          onChange={(patch) => setDraft((d) => withParameter(d, index, j, patch))}
          onRemove={() => setDraft((d) => removeParameter(d, index, j))}
        />
      ))}
      <div className={styles.row}>
        <button type="button" className={page.button({ tone: 'outline' })} onClick={() => setDraft((d) => addParameter(d, index))}>
          Add a parameter to {name}
        </button>
        <button type="button" className={page.button({ tone: 'outline' })} onClick={() => setDraft((d) => removeEndpoint(d, index))}>
          Remove endpoint {name}
        </button>
      </div>
    </fieldset>
  );
}

export function EndpointsEditor({ editor }: { editor: ServiceEditor }) {
  const { draft, setDraft } = editor;
  return (
    <>
      <ImportForm editor={editor} />
      {draft.endpoints.length === 0 && <p className={styles.hint}>No endpoints yet: import them or add one by hand.</p>}
      {draft.endpoints.map((endpoint, i) => (
        <EndpointEditor key={i} editor={editor} endpoint={endpoint} index={i} />
      ))}
      <div>
        <button type="button" className={page.button({ tone: 'outline' })} onClick={() => setDraft(addEndpoint)}>
          Add an endpoint
        </button>
      </div>
    </>
  );
}
