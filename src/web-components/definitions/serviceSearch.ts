// Pure data (no runtime imports): the manifest script loads it in Node; each element imports only its own.
import type { WidgetDefinition } from '../types';
import { apiUrl, theme, strings } from './common';

export const serviceSearchDefinition = {
  tag: 'lime-service-search',
  className: 'LimeServiceSearchElement',
  bundle: 'lime-service-search',
  description:
    'Service search combobox: up to 4 top results while typing, Enter opens the catalogue overview, choosing a result opens the service page (product-rules §2 "Header search bar").',
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
      description: 'Placeholder of the search box (the same as `strings` `search.placeholder`).',
    },
    {
      name: 'shortcuts',
      property: 'shortcuts',
      type: 'boolean',
      default: 'false',
      description: 'Lets Ctrl/Cmd+K and `/` anywhere on the page focus the search box. Off by default: the page owns its keyboard.',
    },
    theme,
    strings,
  ],
  events: [
    {
      name: 'select',
      detail: 'ModelDescriptor',
      cancelable: true,
      description:
        'A result was chosen; `detail` is the model. `preventDefault()` keeps the page where it is (no navigation to `service-href`).',
    },
    {
      name: 'search',
      detail: 'string',
      cancelable: true,
      description:
        'Enter was pressed; `detail` is the query. `preventDefault()` keeps the page where it is (no navigation to `overview-href`).',
    },
  ],
  methods: [],
} as const satisfies WidgetDefinition;
