// Attributes every element (or several) shares. Pure data, like the definitions themselves.
import type { AttributeDefinition } from '../types';

export const theme: AttributeDefinition = {
  name: 'theme',
  property: 'theme',
  type: 'string',
  values: ['dark', 'light', 'inherit'],
  typeText: "'dark' | 'light' | 'inherit'",
  default: 'dark',
  description:
    'Colour theme. `inherit` sets no token, so every `--lime-*` custom property comes from the page. Any single token set on the element itself wins over the theme.',
};

export const strings: AttributeDefinition = {
  name: 'strings',
  property: 'strings',
  type: 'json',
  typeText: 'StringOverrides',
  description:
    'JSON object overriding any subset of the strings table (the spec\'s English texts are the defaults), e.g. `{"search":{"placeholder":"Modelle suchen"}}`.',
};

export const apiUrl: AttributeDefinition = {
  name: 'api-url',
  property: 'apiUrl',
  type: 'string',
  default: 'the page origin',
  description:
    'Base URL of the platform API (the client appends `/v1/...`). Cross-origin: the API must allow the page origin (CORS) and the page CSP must list it in `connect-src`.',
};

export const authUrl: AttributeDefinition = {
  name: 'auth-url',
  property: 'authUrl',
  type: 'string',
  default: 'api-url',
  description:
    'Supabase-compatible auth service URL (the client appends `/auth/v1`). Must allow the page origin (CORS) and be listed in the page CSP `connect-src`.',
};

export const authKey: AttributeDefinition = {
  name: 'auth-key',
  property: 'authKey',
  type: 'string',
  default: "''",
  description: 'Public (anon) key of the auth service.',
};

export const headingLevel: AttributeDefinition = {
  name: 'heading-level',
  property: 'headingLevel',
  type: 'number',
  typeText: '0 | 2 | 3 | 4 | 5 | 6',
  default: '2',
  description: "Heading level of the panel's title, or 0 for no visible title.",
};
