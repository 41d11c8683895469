// What the server hands a docs page (docs/render.ts, docs/apiReference.ts): plain data, the same
// in the server render and in the browser's hydration.

/** A piece of a rendered doc: sanitised HTML, or a code block for the site's code viewer. */
export type DocBlock = { kind: 'html'; html: string } | { kind: 'code'; code: string; language: string };

export interface DocHeading {
  level: number;
  /** Plain text of the heading. */
  text: string;
  /** Its anchor (the heading's id). */
  id: string;
}

/** One section in the docs search: a heading, where it is, and the start of its text. */
export interface SearchEntry {
  /** The section's heading (or the page's title for its opening). */
  title: string;
  /** The page it belongs to. */
  page: string;
  /** /docs/<slug>#<anchor> */
  href: string;
  /** The start of the section's plain text. */
  text: string;
}

export interface RenderedDoc {
  slug: string;
  title: string;
  description: string;
  blocks: DocBlock[];
  /** h2 and h3, for the page's table of contents. */
  headings: DocHeading[];
  search: SearchEntry[];
}

/** A field of a request or response body, with its nested fields. */
export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  /** Allowed values, when the schema lists them. */
  values?: string[];
  fields?: SchemaField[];
}

export interface ApiParameter {
  name: string;
  in: string;
  type: string;
  required: boolean;
  description?: string;
}

export interface ApiResponse {
  status: string;
  description: string;
  fields: SchemaField[];
}

export interface ApiOperation {
  /** The operation's anchor on the reference page. */
  id: string;
  method: string;
  /** The path under the API's base (e.g. /jobs/{job_id}). */
  path: string;
  summary: string;
  description?: string;
  /** 'required', 'optional' (works signed out, more when signed in) or 'none'. */
  auth: 'required' | 'optional' | 'none';
  parameters: ApiParameter[];
  requestBody: { contentType: string; required: boolean; fields: SchemaField[] } | null;
  responses: ApiResponse[];
  samples: { curl: string; python: string; javascript: string };
}

export interface ApiGroup {
  tag: string;
  id: string;
  description?: string;
  operations: ApiOperation[];
}

export interface ApiReference {
  title: string;
  description?: string;
  /** The API's base URL (the document's first server). */
  baseUrl: string;
  groups: ApiGroup[];
}

/** A docs page's loader data. */
export interface DocsPageData {
  meta: { title: string; description: string };
  /** The page: a guide, the index (the quick start and the guides list) or the API reference. */
  page:
    { kind: 'doc'; doc: RenderedDoc } | { kind: 'index'; quickstart: RenderedDoc | null } | { kind: 'api'; reference: ApiReference | null };
  /** Every page, for the sidebar. */
  nav: { slug: string; title: string; description: string; highlights: { text: string; href: string }[] }[];
  /** Every section of every page, for the search box (fuse.js). */
  search: SearchEntry[];
}
