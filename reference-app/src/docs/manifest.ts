// Which of the repository's docs/*.md the site publishes at /docs (docs/deploy.md, "The docs on
// the site"): the files themselves are the one source, rendered by the server (docs/render.ts);
// this list only names them, in the order the docs index shows them. Files not listed here
// (architecture, testing, the product rules) are for the project's own engineers.

export interface DocEntry {
  /** The page's address: /docs/<slug>. */
  slug: string;
  /** The file under docs/. */
  file: string;
  /** The page's title (its tab, the index, the search results). */
  title: string;
  /** The page's meta description and its line on the index. */
  description: string;
  /** Sections of the file the index links to directly (their heading texts). */
  highlights?: readonly string[];
}

/** The quick start comes first; the index lists the rest as guides. */
export const DOCS: readonly DocEntry[] = [
  {
    slug: 'quickstart',
    file: 'quickstart.md',
    title: 'Quick start',
    description: 'Sign up, create an API key and run your first model on Limelight with cURL, Python or JavaScript.',
  },
  {
    slug: 'run',
    file: 'jobs.md',
    title: 'Running services',
    description: 'The job API: run a service, wait for or stream its result, send and receive files, and get webhooks.',
    highlights: ['Streaming (SSE)', 'Files', 'Webhooks'],
  },
  {
    slug: 'sdk',
    file: 'sdk.md',
    title: 'Client SDKs',
    description: 'The Python and JavaScript clients: install, run a service, errors, retries, webhooks and per-service types.',
    highlights: ['Install', 'Errors', 'Webhooks'],
  },
  {
    slug: 'publishing',
    file: 'publishing.md',
    title: 'Publish a service',
    description: 'Write a service with limelight.serve, publish it with the limelight CLI, and host its container on Limelight.',
    highlights: [
      'Write a service in Python: the library and the CLI',
      'Container deployments and the runner interface',
      'Running containers',
    ],
  },
  {
    slug: 'security',
    file: 'security.md',
    title: 'Authentication and security',
    description: 'Accounts, sign-in, API keys and tokens, rate limits, and how the platform API protects your data.',
    highlights: ['Accounts and sign-in', 'Platform API', 'Rate limits'],
  },
  {
    slug: 'embeds',
    file: 'embeds.md',
    title: 'Embed the widgets',
    description: 'Put Limelight’s search, sign-in, code viewer, pricing and service runner on your own pages.',
  },
  {
    slug: 'frameworks',
    file: 'frameworks.md',
    title: 'Widgets in a framework',
    description: 'Use the Limelight widgets from Next.js, Vite and React, Vue, Angular or plain HTML.',
  },
  {
    slug: 'deploy',
    file: 'deploy.md',
    title: 'Self-hosting the platform',
    description: 'Run the Limelight platform server yourself: processes, container runners, health checks, caching and the image.',
  },
];

/** The API reference's slug: /docs/api, generated from the platform's OpenAPI document. */
export const API_REFERENCE_SLUG = 'api';
export const API_REFERENCE_TITLE = 'API reference';
export const API_REFERENCE_DESCRIPTION =
  'Every route of the Limelight platform API: parameters, request and response schemas, errors, and samples in cURL, Python and JavaScript.';

export const DOCS_INDEX_TITLE = 'Documentation';
export const DOCS_INDEX_DESCRIPTION =
  'Limelight documentation: a quick start, guides to running and publishing services, the SDKs, and the API reference.';

/** The address of a published doc (and one of its sections). */
export const docHref = (slug: string, anchor?: string) => `/docs/${slug}${anchor ? `#${anchor}` : ''}`;

/** The published doc of a file under docs/ (as a link in another doc names it), if it is one. */
export const docOfFile = (file: string): DocEntry | undefined => DOCS.find((d) => d.file === file);
export const docOfSlug = (slug: string): DocEntry | undefined => DOCS.find((d) => d.slug === slug);
