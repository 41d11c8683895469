import type { ModelDescriptor } from '../api/types';

// Service URLs (product-rules §2 route table and header search).

/** Default service page address; `{path}` receives the encoded service path. */
export const DEFAULT_SERVICE_HREF = '/APIs/service/{path}';
/** Default catalogue address (product-rules §2: Enter opens /APIs/Overview). */
export const DEFAULT_OVERVIEW_HREF = '/APIs/Overview';

/**
 * The unencoded path segments of a service. product-rules §2: the service is addressed by its display
 * name (the id when it has none); if the display name, or else the id, contains a slash it is
 * split into owner and name at the first slash: `owner/name` -> ['owner', 'name'].
 */
export function servicePathSegments(model: Pick<ModelDescriptor, 'id' | 'display_name'>): string[] {
  const name = typeof model.display_name === 'string' ? model.display_name.trim() : '';
  const id = String(model.id ?? '');
  const source = name.includes('/') ? name : id.includes('/') ? id : name || id;
  const slash = source.indexOf('/');
  if (slash > 0 && slash < source.length - 1) return [source.slice(0, slash), source.slice(slash + 1)];
  return [source];
}

/** The encoded service path: `name` or `owner/name`, each part URL-encoded (product-rules §2). */
export function servicePath(model: Pick<ModelDescriptor, 'id' | 'display_name'>): string {
  return servicePathSegments(model).map(encodeURIComponent).join('/');
}

/** A service page address from a template with a `{path}` placeholder. */
export function serviceHref(model: Pick<ModelDescriptor, 'id' | 'display_name'>, template = DEFAULT_SERVICE_HREF): string {
  return template.replace('{path}', servicePath(model));
}

/**
 * The catalogue address for a query (product-rules §2: Enter opens /APIs/Overview with the query). A
 * blank query opens the catalogue without one. `{query}` in the template receives the encoded
 * query; otherwise `q` is appended as a search parameter.
 */
export function overviewHref(query: string, template = DEFAULT_OVERVIEW_HREF): string {
  const q = query.trim();
  if (template.includes('{query}')) return template.replace('{query}', encodeURIComponent(q));
  if (!q) return template;
  return `${template}${template.includes('?') ? '&' : '?'}q=${encodeURIComponent(q)}`;
}

/**
 * Finds the service a service-page address names: the decoded segments joined with '/' are
 * compared with the display name, then the id, exactly first and then ignoring case.
 */
export function findServiceByPath<T extends Pick<ModelDescriptor, 'id' | 'display_name'>>(
  models: readonly T[],
  segments: readonly string[],
): T | undefined {
  const key = segments.filter((s) => s !== '').join('/');
  if (!key) return undefined;
  const name = (m: T) => (typeof m.display_name === 'string' ? m.display_name.trim() : '');
  const exact =
    models.find((m) => name(m) === key) ??
    models.find((m) => String(m.id) === key) ??
    models.find((m) => servicePathSegments(m).join('/') === key);
  if (exact) return exact;
  const lower = key.toLowerCase();
  return models.find((m) => name(m).toLowerCase() === lower || String(m.id).toLowerCase() === lower);
}
