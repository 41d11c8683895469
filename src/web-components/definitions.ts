import type { AttributeDefinition, WidgetDefinition } from './types';

// Pure data (no imports besides types): the manifest script loads this file in Node.

const theme: AttributeDefinition = {
  name: 'theme',
  property: 'theme',
  type: 'string',
  values: ['dark', 'light', 'inherit'],
  typeText: "'dark' | 'light' | 'inherit'",
  default: 'dark',
  description:
    "Colour theme. `inherit` sets no token, so every `--lime-*` custom property comes from the page. Any single token set on the element itself wins over the theme.",
};

const strings: AttributeDefinition = {
  name: 'strings',
  property: 'strings',
  type: 'json',
  typeText: 'StringOverrides',
  description:
    'JSON object overriding any subset of the strings table (the spec\'s English texts are the defaults), e.g. `{"search":{"placeholder":"Modelle suchen"}}`.',
};

const apiUrl: AttributeDefinition = {
  name: 'api-url',
  property: 'apiUrl',
  type: 'string',
  default: 'the page origin',
  description: 'Base URL of the platform API (the client appends `/v1/...`). Cross-origin: the API must allow the page origin (CORS) and the page CSP must list it in `connect-src`.',
};

export const serviceSearchDefinition = {
  tag: 'lime-service-search',
  className: 'LimeServiceSearchElement',
  bundle: 'lime-service-search',
  description:
    'Service search combobox: up to 4 top results while typing, Enter opens the catalogue overview, choosing a result opens the service page (spec §2 "Header search bar").',
  attributes: [
    apiUrl,
    {
      name: 'service-href',
      property: 'serviceHref',
      type: 'string',
      default: '/APIs/service/{path}',
      description:
        'Link template for a chosen service. `{path}` becomes the URL-encoded name, or `owner/name` with each part encoded when the name contains a slash. Use an absolute URL to link to the platform site.',
    },
    {
      name: 'overview-href',
      property: 'overviewHref',
      type: 'string',
      default: '/APIs/Overview',
      description: 'Where Enter leads (the catalogue overview).',
    },
    {
      name: 'placeholder',
      property: 'placeholder',
      type: 'string',
      default: 'Search services',
      description: 'Placeholder of the search box.',
    },
    theme,
    strings,
  ],
  events: [
    {
      name: 'select',
      detail: 'ModelDescriptor',
      cancelable: true,
      description: 'A result was chosen; `detail` is the model. `preventDefault()` keeps the page where it is (no navigation to `service-href`).',
    },
    {
      name: 'search',
      detail: 'string',
      cancelable: true,
      description: 'Enter was pressed; `detail` is the query. `preventDefault()` keeps the page where it is (no navigation to `overview-href`).',
    },
  ],
  methods: [],
} as const satisfies WidgetDefinition;

export const authDialogDefinition = {
  tag: 'lime-auth-dialog',
  className: 'LimeAuthDialogElement',
  bundle: 'lime-auth-dialog',
  description:
    'Sign-in / sign-up overlay (spec §4 "Sign-in page states", overlay mode): opens with the `open` attribute or `show()`, emits `authenticated` after a sign-in and closes.',
  attributes: [
    {
      name: 'auth-url',
      property: 'authUrl',
      type: 'string',
      default: 'api-url',
      description: 'Supabase-compatible auth service URL (the client appends `/auth/v1`). Must allow the page origin (CORS) and be listed in the page CSP `connect-src`.',
    },
    {
      name: 'auth-key',
      property: 'authKey',
      type: 'string',
      default: "''",
      description: 'Public (anon) key of the auth service.',
    },
    apiUrl,
    {
      name: 'open',
      property: 'open',
      type: 'boolean',
      default: 'false',
      description: 'Present while the dialog is open. Set it (or call `show()`) to open; the element removes it when the dialog closes.',
    },
    {
      name: 'page-state',
      property: 'pageState',
      type: 'number',
      typeText: '0 | 1 | 2 | 3 | 4 | 5 | 6',
      default: '1',
      description: 'State the dialog opens in (spec §4): 0 sign up, 1 sign in, 3 password recovery. Read each time the dialog opens.',
    },
    theme,
    strings,
  ],
  events: [
    {
      name: 'authenticated',
      detail: 'Session',
      description: 'The user signed in; `detail` is the session (`access_token`, `refresh_token`, `expires_at`, `user`, ...). The dialog closes afterwards.',
    },
    {
      name: 'close',
      detail: 'null',
      description: 'The dialog closed (close button, Escape, or after `authenticated`); the `open` attribute is gone.',
    },
  ],
  methods: [
    { name: 'show', description: 'Opens the dialog (sets the `open` attribute).' },
    { name: 'close', description: 'Closes the dialog (removes the `open` attribute) and emits `close`.' },
  ],
} as const satisfies WidgetDefinition;

/** Every element, in registration order. */
export const widgetDefinitions: readonly WidgetDefinition[] = [serviceSearchDefinition, authDialogDefinition];
