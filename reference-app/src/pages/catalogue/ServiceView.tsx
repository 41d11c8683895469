import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Job, ModelCategory, ModelDescriptor, ServiceEndpoint } from '@limelight/widgets/api';
import {
  displayName,
  findServiceByPath,
  formatRuns,
  resolveCategories,
  sanitizeDescriptionHtml,
  sortDomains,
} from '@limelight/widgets/catalogue';
import { usePlatform } from '@limelight/widgets/platform';
import { runBlocker } from '@limelight/widgets/run';
import { ServiceRunner } from '@limelight/widgets/service-runner';
import { BalanceLine, useSignedInBalance } from './BalanceLine';
import { DemoBadge } from './DemoBadge';
import { ServiceTabs } from './ServiceTabs';
import { blockerBadge, providerLabel } from './ServiceCard';
import { useCatalogueData } from './useCatalogueData';
import { ServicePicture } from './ServicePicture';
import * as styles from './catalogue.css';

/** The decoded path segments of /APIs/service/:serviceId and /APIs/service/:owner/:name. */
export function useServiceSegments(): string[] {
  const params = useParams();
  return params.serviceId !== undefined ? [params.serviceId] : [params.owner ?? '', params.name ?? ''];
}

const TABS = ['playground', 'api', 'docs'] as const;
type TabKey = (typeof TABS)[number];
const isTab = (value: string | null): value is TabKey => TABS.includes(value as TabKey);

// The API tab's code samples (the code viewer, its tooltip and the highlighter worker) load when
// the tab is first opened (docs/deploy.md, "Lean first load").
const ServiceApiTab = lazy(() => import('./ServiceApiTab').then((m) => ({ default: m.ServiceApiTab })));

/** The selected tab lives in the URL (`?tab=api`), so it can be linked and survives a reload. */
function useTab(): [TabKey, (tab: TabKey) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab = isTab(raw) ? raw : 'playground';
  const select = useCallback(
    (next: TabKey) =>
      setParams(
        (current) => {
          const out = new URLSearchParams(current);
          if (next === 'playground') out.delete('tab');
          else out.set('tab', next);
          return out;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [tab, select];
}

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

function formatDate(value: string | null | undefined, unknown: string): string {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? unknown : dateFormat.format(t);
}

function formatDefault(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function Endpoint({ endpoint, s }: { endpoint: ServiceEndpoint; s: ReturnType<typeof usePlatform>['strings']['search']['service'] }) {
  const parameters = Array.isArray(endpoint.parameters) ? endpoint.parameters : [];
  return (
    <section className={styles.endpoint} aria-label={`${endpoint.method} ${endpoint.path}`}>
      <h3 className={styles.endpointTitle}>
        <span className={styles.method}>{endpoint.method}</span>
        {endpoint.path}
      </h3>
      {endpoint.description ? <p>{endpoint.description}</p> : null}
      {parameters.length > 0 ? (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">{s.parameter}</th>
              <th scope="col">{s.type}</th>
              <th scope="col">{s.required}</th>
              <th scope="col">{s.defaultValue}</th>
              <th scope="col">{s.description}</th>
            </tr>
          </thead>
          <tbody>
            {parameters.map((p) => (
              <tr key={p.name}>
                <td>
                  <code className={styles.code}>{p.name}</code>
                </td>
                <td>{p.type}</td>
                <td>{p.required ? s.yes : s.no}</td>
                <td>
                  <code className={styles.code}>{formatDefault(p.default)}</code>
                </td>
                <td>{p.description ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/**
 * The top of a service page: image, name, description and facts. The editor's live preview
 * (pages/publish/ServicePreview.tsx) renders it too, with a lower heading level.
 */
export function ServiceHeader({
  model,
  categories: allCategories,
  headingLevel = 1,
  stacked = false,
}: {
  model: ModelDescriptor;
  categories: readonly ModelCategory[];
  headingLevel?: 1 | 3;
  /** Image above the text, for a narrow column. */
  stacked?: boolean;
}) {
  const { strings, brand } = usePlatform();
  const s = strings.search.service;
  const Heading = headingLevel === 1 ? 'h1' : 'h3';
  const name = displayName(model, strings.search.unknownModel);
  const categories = resolveCategories(model, allCategories);
  const blocker = runBlocker(model);
  const tags = Array.isArray(model.used_models) ? model.used_models.filter((t) => typeof t === 'string' && t.trim()) : [];
  const html = useMemo(() => sanitizeDescriptionHtml(model.model_desc), [model.model_desc]);
  return (
    <div className={stacked ? styles.serviceHeaderStacked : styles.serviceHeader}>
      <ServicePicture model={model} className={styles.serviceImage} />
      <div>
        <Heading className={styles.title}>{name}</Heading>
        {model.demo ? (
          <p className={styles.headerBadges}>
            <DemoBadge model={model} focusable />
          </p>
        ) : null}
        {blocker ? (
          <p className={styles.warningBadge} data-runnable="false" data-blocker={blocker}>
            {blockerBadge(blocker, s)}
          </p>
        ) : null}
        {html ? (
          // Sanitised with DOMPurify (scripts, handlers, styles removed) before it is rendered.
          <div className={styles.description} dangerouslySetInnerHTML={{ __html: html }} />
        ) : null}
        <dl className={styles.facts}>
          <dt className={styles.factName}>{s.provider}</dt>
          <dd className={styles.factValue}>{providerLabel(model.provider, brand) || s.unknown}</dd>
          <dt className={styles.factName}>{s.owner}</dt>
          <dd className={styles.factValue}>{model.owner_name || model.created_by || s.unknown}</dd>
          <dt className={styles.factName}>{s.runs}</dt>
          <dd className={styles.factValue}>{formatRuns(model.n_usages, strings.search.runs)}</dd>
          <dt className={styles.factName}>{s.published}</dt>
          <dd className={styles.factValue}>
            {model.created_at && !Number.isNaN(Date.parse(model.created_at)) ? (
              <time dateTime={model.created_at}>{formatDate(model.created_at, s.unknown)}</time>
            ) : (
              s.unknown
            )}
          </dd>
          {/* A new service without categories or models says nothing of them, not "unknown" (issue 50, item 7). */}
          {categories.length > 0 ? (
            <>
              <dt className={styles.factName}>{s.categories}</dt>
              <dd className={styles.factValue}>
                {categories.map((c) => (
                  <span key={c.id} className={styles.badge}>
                    {c.title} ({sortDomains(c.input_domain ?? []).join(', ')} → {sortDomains(c.output_domain ?? []).join(', ')})
                  </span>
                ))}
              </dd>
            </>
          ) : null}
          {tags.length > 0 ? (
            <>
              <dt className={styles.factName}>{s.tags}</dt>
              <dd className={styles.factValue}>
                {tags.map((t) => (
                  <span key={t} className={styles.badge}>
                    {t}
                  </span>
                ))}
              </dd>
            </>
          ) : null}
        </dl>
      </div>
    </div>
  );
}

function ServiceDetails({ model }: { model: ModelDescriptor }) {
  const { strings, brand } = usePlatform();
  const s = strings.search.service;
  const data = useCatalogueData();
  const name = displayName(model, strings.search.unknownModel);
  const endpoints = Array.isArray(model.endpoints) ? model.endpoints : [];
  const [tab, setTab] = useTab();
  // The API tab's samples use the input of the last playground run.
  const [lastInput, setLastInput] = useState<{ endpoint: string; input: Record<string, unknown> } | null>(null);
  const { balance, onJobChange: refreshBalance } = useSignedInBalance();
  const rememberInput = useCallback(
    (job: Job) => {
      setLastInput((last) => (last?.input === job.input ? last : { endpoint: job.endpoint, input: job.input }));
      refreshBalance(job);
    },
    [refreshBalance],
  );

  useEffect(() => {
    document.title = `${name} · ${brand}`;
  }, [name, brand]);

  return (
    <article>
      <ServiceHeader model={model} categories={data.categories} />
      <BalanceLine balance={balance} />
      <ServiceTabs
        label={strings.runner.page.tabsLabel}
        selected={tab}
        onSelect={setTab}
        tabs={[
          {
            key: 'playground',
            label: strings.runner.page.playground,
            panel: <ServiceRunner serviceId={model.id} service={model} titleHidden onJobChange={rememberInput} />,
          },
          {
            key: 'api',
            label: strings.runner.page.api,
            panel: (
              <Suspense fallback={null}>
                <ServiceApiTab serviceId={model.id} endpoints={endpoints} lastInput={lastInput} />
              </Suspense>
            ),
          },
          {
            key: 'docs',
            label: strings.runner.page.docs,
            panel: (
              <>
                <h2 className={styles.sectionTitle}>{s.howToCall}</h2>
                {endpoints.length === 0 ? (
                  <p>{s.noEndpoints}</p>
                ) : (
                  endpoints.map((e) => <Endpoint key={`${e.method} ${e.path}`} endpoint={e} s={s} />)
                )}
              </>
            ),
          },
        ]}
      />
    </article>
  );
}

/** /APIs/service/{id} and /APIs/service/{owner}/{name} (product-rules §2). */
export function ServiceView() {
  const { strings, brand } = usePlatform();
  const s = strings.search.service;
  const segments = useServiceSegments();
  const data = useCatalogueData();
  const model = useMemo(() => findServiceByPath(data.models, segments), [data.models, segments]);

  useEffect(() => {
    if (!model && !data.loading) document.title = `${s.notFoundTitle} · ${brand}`;
  }, [model, data.loading, s.notFoundTitle, brand]);

  if (model) {
    return (
      <div className={styles.servicePage}>
        <ServiceDetails model={model} />
      </div>
    );
  }
  if (data.loading) {
    return (
      <div className={styles.page} role="status">
        {s.loading}
      </div>
    );
  }
  if (data.status === 'error' && data.models.length === 0) {
    // Offline is not "not found": say so, and offer to try again.
    return (
      <div className={styles.page}>
        <h1 className={styles.title}>{strings.search.overview.loadFailed}</h1>
        <button type="button" className={styles.textButton} onClick={() => void data.catalogue.refresh().catch(() => {})}>
          {strings.search.overview.retry}
        </button>
      </div>
    );
  }
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{s.notFoundTitle}</h1>
      <p>{s.notFoundText}</p>
      <p>
        <Link className={styles.link} to="/APIs/Overview">
          {s.backToOverview}
        </Link>
      </p>
    </div>
  );
}
